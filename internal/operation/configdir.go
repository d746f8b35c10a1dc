package operation

import "path/filepath"

// configFilePatterns match a directory's configuration files.
var configFilePatterns = []string{"*.tf", "*.tf.json", "*.tofu", "*.tofu.json"}

// hasConfigFiles reports whether dir holds any .tf, .tf.json, .tofu or
// .tofu.json file.
func hasConfigFiles(dir string) bool {
	for _, pat := range configFilePatterns {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return true
		}
	}
	return false
}
