package planfile

import "errors"

// EntryShowJSON holds the members of `plan show -json` made from the
// configuration ("configuration" and "relevant_attributes", as one JSON
// object; command/jsonplan.StartSections and Finish make it), written at plan
// time from the configuration the plan was made from, so that show
// -json copies them instead of parsing tfconfig/ again. The archive
// stores it as it is given and never interprets it; like every entry it
// is covered by tfplan.sha256 (and so by the signature). It is a
// second copy of what tfconfig/ says: someone able to edit an unsigned
// archive and recompute tfplan.sha256 can make the two disagree, which
// only a signature (WithVerifyKey) rules out. It needs no
// new format version: readers of format 1.x ignore entries they do not
// know, and an archive without it (an older plankit's, or written
// without it) is read as before, the members made from tfconfig/.
const EntryShowJSON = "tfshow.json"

// ShowJSON returns the EntryShowJSON entry's bytes, which the caller must
// not modify, and whether the archive has one.
func (r *Reader) ShowJSON() ([]byte, bool) {
	b, ok := r.entries[EntryShowJSON]
	return b, ok
}

// EntryBuffer is an archive entry made before the archive is: what is
// written to it is deflated as it comes, as the archive stores it, so
// only the compressed bytes are held (CreateArgs.ShowJSON takes one,
// closed). The archive's bytes are the same however the content was cut
// into writes.
type EntryBuffer struct {
	w *entryWriter
	d *deflated
}

// NewEntryBuffer returns an empty, open entry.
func NewEntryBuffer() *EntryBuffer { return &EntryBuffer{w: newEntryWriter()} }

// Write adds p to the entry's content.
func (b *EntryBuffer) Write(p []byte) (int, error) {
	if b.w == nil {
		return 0, errors.New("planfile: write to a closed entry")
	}
	return b.w.Write(p)
}

// Close ends the entry's content; it may be called more than once.
func (b *EntryBuffer) Close() error {
	if b.w == nil {
		return nil
	}
	d, err := b.w.done()
	if err != nil {
		return err
	}
	b.w, b.d = nil, d
	return nil
}
