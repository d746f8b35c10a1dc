package configs

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// splitParseMin is the size from which a native-syntax file is parsed in
// pieces on several cores (parseSplit). Below it one parse is fast
// enough that the split is not worth its scan and goroutines (32 KiB,
// about 400 small resource blocks, a few milliseconds of lexing; the
// 73 KB file of a 1,000-resource chain loads in about 25 ms split against
// 36 ms whole, BenchmarkLoadVsParse/1file-chain-1000).
const splitParseMin = 32 << 10

// splitPieceSize is the size of the pieces parseSplit cuts a large file
// into: many more pieces than cores, each parsed whole by one worker.
// hclsyntax lexes a piece into one token slice (about 100 bytes per
// token, some 17 tokens per small resource block) grown by append. Past
// 256 tokens append grows a slice by about a quarter at a time, so a
// large piece's tokens cost about five times their final size in fresh,
// zeroed memory (868 MB of the 1.4 GB a 100,000-resource file allocated
// while loading, with 16 KiB pieces), garbage that sets how often the
// collector marks the growing configuration. A 2 KiB piece's tokens
// (some 600) are about three times their size and stay in cache between
// lexing and parsing: loading the 100,000 resources took 2.76 s instead
// of 3.39 s, 10,000 0.209 s instead of 0.237 s, a 1,000-resource chain
// 19-20 ms instead of 21 (1 KiB pieces gain nothing more).
const splitPieceSize = 2 << 10

// parseSplit parses a large native-syntax file in pieces of about
// splitPieceSize on every core, and joins them into the body a single
// parse gives: a configuration of 100,000 resources is one 6-9 MB file,
// whose parse (lexing, mostly) is otherwise the longest single-threaded
// step of loading it.
//
// The file is cut only right after a line that is a lone "}" (the end of
// a top-level block, as every formatter writes it). Each piece is parsed
// with its true start position, so every range is the one a single
// parse records. The cut is sound only if it fell between top-level
// items, not inside a heredoc or a comment; so the result is used only
// when every piece parsed without any diagnostic and each piece before a
// cut ends with a block closed exactly at the cut. Otherwise ok is false
// and the caller parses the whole file (which also words any error).
// O(len(src)) work, about len(src)/cores of it per core.
func parseSplit(src []byte, filename string) (f *hcl.File, ok bool) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 {
		return nil, false
	}
	return parsePieces(src, filename, max(workers, len(src)/splitPieceSize), splitParseMin)
}

// parsePieces is parseSplit with the number of pieces and the smallest
// file it splits as parameters. At most GOMAXPROCS pieces are parsed at
// once.
func parsePieces(src []byte, filename string, pieces, minSize int) (f *hcl.File, ok bool) {
	if len(src) < minSize || pieces < 2 {
		return nil, false
	}
	cuts := splitPoints(src, pieces)
	if len(cuts) == 0 {
		return nil, false
	}
	bounds := append(append([]int{0}, cuts...), len(src))
	files := make([]*hcl.File, len(bounds)-1)
	clean := make([]bool, len(files))
	starts := make([]hcl.Pos, len(files))
	line := 1
	for i := range files {
		starts[i] = hcl.Pos{Line: line, Column: 1, Byte: bounds[i]}
		line += bytes.Count(src[bounds[i]:bounds[i+1]], []byte("\n"))
	}
	// Workers take the pieces in order; one that meets an unclean piece
	// stops everyone early (the file is then parsed whole anyway).
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(len(files), max(1, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				hf, diags := hclsyntax.ParseConfig(src[bounds[i]:bounds[i+1]], filename, starts[i])
				files[i], clean[i] = hf, len(diags) == 0
				if !clean[i] {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return nil, false
	}
	for i, hf := range files {
		if !clean[i] || hf == nil {
			return nil, false
		}
		if i < len(files)-1 { // the piece must end with a block closed at the cut
			b := hf.Body.(*hclsyntax.Body)
			if len(b.Blocks) == 0 || b.Blocks[len(b.Blocks)-1].CloseBraceRange.End.Byte != bounds[i+1]-1 {
				return nil, false
			}
		}
	}
	// The first piece's body becomes the whole file's, so that its
	// navigation (hcled.ContextString) sees every block.
	root := files[0].Body.(*hclsyntax.Body)
	nblocks := 0
	for _, hf := range files {
		nblocks += len(hf.Body.(*hclsyntax.Body).Blocks)
	}
	root.Blocks = append(make(hclsyntax.Blocks, 0, nblocks), root.Blocks...)
	for _, hf := range files[1:] {
		b := hf.Body.(*hclsyntax.Body)
		for name, a := range b.Attributes {
			if _, dup := root.Attributes[name]; dup {
				return nil, false // a single parse reports it
			}
			root.Attributes[name] = a
		}
		root.Blocks = append(root.Blocks, b.Blocks...)
	}
	last := files[len(files)-1].Body.(*hclsyntax.Body)
	root.SrcRange.End = last.SrcRange.End
	root.EndRange = last.EndRange
	return &hcl.File{Body: root, Bytes: src, Nav: files[0].Nav}, true
}

// splitPoints returns up to pieces-1 offsets into src, roughly evenly
// spaced, each just after a "\n}\n" (a lone closing brace line).
func splitPoints(src []byte, pieces int) []int {
	var cuts []int
	prev := 0
	for i := 1; i < pieces; i++ {
		from := max(len(src)*i/pieces, prev)
		j := bytes.Index(src[from:], []byte("\n}\n"))
		if j < 0 {
			break
		}
		cut := from + j + 3
		if cut >= len(src) {
			break
		}
		cuts = append(cuts, cut)
		prev = cut
	}
	return cuts
}
