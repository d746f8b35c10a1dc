// Command gen writes a benchmark configuration: gen -shape chain -n 1000 -out DIR
// writes DIR/main.tf.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plankit/plankit/bench/gen"
)

func main() {
	shape := flag.String("shape", "independent", fmt.Sprint("one of ", gen.Shapes))
	n := flag.Int("n", 1000, "number of resources")
	out := flag.String("out", ".", "directory to write main.tf into")
	flag.Parse()
	src, err := gen.Config(gen.Shape(*shape), *n)
	if err == nil {
		err = os.MkdirAll(*out, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "main.tf"), []byte(src), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
