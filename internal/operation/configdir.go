package operation

import "path/filepath"

// ConfigFilePatterns match a directory's configuration files.
var ConfigFilePatterns = []string{"*.tf", "*.tf.json", "*.tofu", "*.tofu.json"}

// HasConfigFiles reports whether dir holds any .tf, .tf.json, .tofu or
// .tofu.json file.
func HasConfigFiles(dir string) bool {
	for _, pat := range ConfigFilePatterns {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return true
		}
	}
	return false
}

// Resolve makes a path given on the command line relative to the working
// directory chosen with -chdir.
func Resolve(wd, p string) string {
	if p == "" || filepath.IsAbs(p) || p == "-" {
		return p
	}
	return filepath.Join(wd, p)
}
