package jsonplan

// entries writes a JSON array of n entries, entry i written by
// write(e, i), flushing to the writer after each entry, so the output
// streams and memory holds about one entry; it stops at the first error.
// O(n).
func (e *encoder) entries(n int, write func(e *encoder, i int) error) error {
	e.buf = append(e.buf, '[')
	for i := range n {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := write(e, i); err != nil {
			return err
		}
		if err := e.flush(false); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}
