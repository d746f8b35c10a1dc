package inputguard

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCheckNestingJSON checks a generated 1.6 MB .tf.json file of
// 20,000 resources; one string in seven holds an interpolation.
func BenchmarkCheckNestingJSON(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"resource":{"null_resource":{`)
	for i := range 20000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `"r%d":{"triggers":{"name":"resource-%d","zone":"eu-west-1a","id":"${var.x}"}}`, i, i)
	}
	sb.WriteString(`}}}`)
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if ds := checkNesting("main.tf.json", src, true); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}
