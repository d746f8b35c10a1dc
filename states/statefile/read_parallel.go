package statefile

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"
)

// parallelReadMin is the size of the "resources" array from which
// readParallel decodes it in pieces, one per core: below it one pass is
// fast enough. A variable for the benchmarks.
var parallelReadMin = 1 << 20

// readParallel is readFast for a large file: its "resources" array (most
// of a large state) is cut between elements and the pieces are decoded by
// encoding/json on every core, the rest of the file in one more pass.
// ok is false, and the caller reads the file the ordinary way, whenever
// the cut is not certain to give what one json.Unmarshal gives: a file
// that is not valid JSON or not version 4, a "resources" value that is
// not an array, a top-level key that encoding/json could also match to
// the resources field (another spelling, an escape, a repeat), or any
// piece that does not decode. O(len(src)).
func readParallel(src []byte) (f *File, ok bool, err error) {
	return readPieces(src, runtime.GOMAXPROCS(0), parallelReadMin)
}

// readPieces is readParallel with the number of pieces and the smallest
// resources array it cuts as parameters.
func readPieces(src []byte, pieces, minSize int) (f *File, ok bool, err error) {
	if pieces < 2 {
		return nil, false, nil
	}
	start, end, found := topLevelResources(src)
	if !found || end-start < minSize {
		return nil, false, nil
	}
	elems, ok := arrayElements(src, start, end)
	if !ok || len(elems) < pieces {
		return nil, false, nil
	}
	// Everything but the resources, with an empty array in their place,
	// decoded (and so validated) in one pass.
	head := make([]byte, 0, len(src)-(end-start)+2)
	head = append(append(append(head, src[:start]...), "[]"...), src[end:]...)
	var sV4 stateV4
	if json.Unmarshal(head, &sV4) != nil || sV4.Version != FormatVersion {
		return nil, false, nil
	}
	// Each piece is a run of whole elements with the separators between
	// them as written, in brackets: an array of those elements, decoded
	// into its place as the whole array's decoding would decode them.
	sV4.Resources = make([]resourceStateV4, len(elems))
	failed := make([]bool, pieces)
	var wg sync.WaitGroup
	for p := range pieces {
		lo, hi := len(elems)*p/pieces, len(elems)*(p+1)/pieces
		wg.Go(func() {
			body := src[elems[lo][0]:elems[hi-1][1]]
			buf := make([]byte, 0, len(body)+2)
			buf = append(append(append(buf, '['), body...), ']')
			part := sV4.Resources[lo:hi:hi]
			failed[p] = json.Unmarshal(buf, &part) != nil || len(part) != hi-lo || (hi > lo && &part[0] != &sV4.Resources[lo])
		})
	}
	wg.Wait()
	for _, bad := range failed {
		if bad {
			return nil, false, nil
		}
	}
	f, err = readV4(&sV4)
	return f, true, err
}

// topLevelResources returns the span of the value of the top-level
// "resources" key of src, a JSON object, when src has that key exactly
// once and no other key encoding/json would also match to the field
// (it matches keys case-insensitively, and a key may hold escapes). The
// values are only skipped over, not validated.
func topLevelResources(src []byte) (start, end int, found bool) {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return 0, 0, false
	}
	i = skipSpace(src, i+1)
	if i < len(src) && src[i] == '}' {
		return 0, 0, false
	}
	for {
		if i >= len(src) || src[i] != '"' {
			return 0, 0, false
		}
		kEnd := skipString(src, i)
		if kEnd < 0 {
			return 0, 0, false
		}
		key := src[i+1 : kEnd-1]
		i = skipSpace(src, kEnd)
		if i >= len(src) || src[i] != ':' {
			return 0, 0, false
		}
		vStart := skipSpace(src, i+1)
		vEnd := skipValue(src, vStart)
		if vEnd < 0 {
			return 0, 0, false
		}
		switch {
		case !plainKey(key):
			return 0, 0, false // an escaped or non-ASCII key might match the field
		case string(key) == "resources":
			if found {
				return 0, 0, false
			}
			start, end, found = vStart, vEnd, true
		case bytes.EqualFold(key, []byte("resources")):
			return 0, 0, false
		}
		i = skipSpace(src, vEnd)
		if i >= len(src) {
			return 0, 0, false
		}
		if src[i] == '}' {
			break
		}
		if src[i] != ',' {
			return 0, 0, false
		}
		i = skipSpace(src, i+1)
	}
	if skipSpace(src, i+1) != len(src) {
		return 0, 0, false
	}
	return start, end, found
}

// arrayElements returns the spans of the elements of the JSON array
// src[start:end], checking that only whitespace and single commas come
// between them (the elements themselves are only skipped over).
func arrayElements(src []byte, start, end int) (elems [][2]int, ok bool) {
	if src[start] != '[' || src[end-1] != ']' {
		return nil, false
	}
	arr := src[:end-1]
	i := skipSpace(arr, start+1)
	if i == len(arr) {
		return nil, true
	}
	for {
		e := skipValue(arr, i)
		if e < 0 {
			return nil, false
		}
		elems = append(elems, [2]int{i, e})
		i = skipSpace(arr, e)
		if i == len(arr) {
			return elems, true
		}
		if arr[i] != ',' {
			return nil, false
		}
		i = skipSpace(arr, i+1)
		if i == len(arr) {
			return nil, false // a trailing comma
		}
	}
}

// plainKey reports whether key is printable ASCII without escapes: a key
// encoding/json matches to a field only by ASCII case folding.
func plainKey(key []byte) bool {
	for _, c := range key {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at src[i]
// (a '"'), or -1 when it does not end.
func skipString(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the JSON value that starts at src[i]:
// a string, an object or array (to its matching close, strings inside
// skipped whole), or a literal or number (to the next delimiter); -1 when
// it does not end. It does not validate the value.
func skipValue(src []byte, i int) int {
	if i >= len(src) {
		return -1
	}
	switch src[i] {
	case '"':
		return skipString(src, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(src); j++ {
			switch src[j] {
			case '"':
				e := skipString(src, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	case '}', ']', ',', ':':
		return -1
	default:
		j := i
		for j < len(src) {
			switch src[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return j
			}
			j++
		}
		return j
	}
}
