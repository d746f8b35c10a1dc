package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/mod/sumdb/dirhash"
)

// HashDir returns the "h1:" hash of an unpacked package directory, as
// Terraform computes it: the Go module dirhash (Hash1) of every regular
// file below dir, named relative to it, after resolving a symlinked dir
// (terraform init links packages from the plugin cache). O(bytes).
func HashDir(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return dirhash.HashDir(real, "", dirhash.Hash1)
}

// HashZip returns the "h1:" hash of a packed package: the same value
// HashDir gives for the directory it unpacks to. O(bytes).
func HashZip(zipPath string) (string, error) {
	return dirhash.HashZip(zipPath, dirhash.Hash1)
}

// HashZipFile returns the "zh:" hash of a packed package: the SHA-256 of
// the zip file, in hex. O(bytes).
func HashZipFile(zipPath string) (string, error) {
	f, err := os.Open(zipPath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", zipPath, err)
	}
	return "zh:" + hex.EncodeToString(h.Sum(nil)), nil
}
