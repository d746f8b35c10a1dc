// Package registrytest serves provider packages over the provider
// registry protocol (service discovery, providers.v1 versions and
// download, SHA256SUMS signed with a GPG key generated per server) and the
// provider network mirror protocol (index.json, VERSION.json), from an
// httptest TLS server on the loopback interface, for installation tests.
package registrytest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// Server is a registry and network mirror.
type Server struct {
	TLS *httptest.Server
	// Key signs the SHA256SUMS files; OtherKey is a second key, listed
	// instead of Key when a test wants an unknown signer.
	Key, OtherKey *openpgp.Entity

	mu   sync.Mutex
	pkgs map[string]map[string]map[string][]byte // "ns/type" -> version -> platform -> zip
	// tamper, set with SetTamper, changes what is served (read under mu,
	// which serve holds).
	tamper string
	// Protocols, when set, are the plugin protocol versions listed for a
	// "ns/type version" (default 5.0 and 6.0).
	Protocols map[string][]string
	// Stall, when set, makes package downloads send half the zip, signal
	// Stalled, and hang until the client goes away.
	Stall   bool
	Stalled chan struct{}
	// Modules maps "NAMESPACE/NAME/PROVIDER" to version -> the
	// X-Terraform-Get location of the module registry protocol.
	Modules map[string]map[string]string
	// Files are served as is at their paths (module archives).
	Files map[string][]byte
	// Requests counts requests by path.
	Requests map[string]int
}

// SetTamper changes what is served from now on: "zip" (a different zip
// than the checksums), "sig" (a signature by OtherKey), "unknown-key" (Key
// signs, only OtherKey is listed), "sums" (SHA256SUMS not listing the
// file); "" serves everything intact. Safe while requests are served.
func (s *Server) SetTamper(how string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tamper = how
}

// New starts a server; it is closed when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	cfg := &packet.Config{RSABits: 2048}
	key, err := openpgp.NewEntity("plankit test registry", "", "registry@example.invalid", cfg)
	if err != nil {
		t.Fatal(err)
	}
	other, err := openpgp.NewEntity("someone else", "", "other@example.invalid", cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Key: key, OtherKey: other, pkgs: map[string]map[string]map[string][]byte{}, Requests: map[string]int{}}
	s.TLS = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.TLS.Close)
	return s
}

// Host is the registry's hostname, for provider source addresses:
// "127.0.0.1:PORT".
func (s *Server) Host() string {
	u, _ := url.Parse(s.TLS.URL)
	return u.Host
}

// Client is an HTTP client trusting the server's certificate.
func (s *Server) Client() *http.Client { return s.TLS.Client() }

// MirrorURL is the base URL of the network mirror.
func (s *Server) MirrorURL() string { return s.TLS.URL + "/mirror/" }

// WriteCA writes the server's certificate as PEM to a file in dir and
// returns its path (for SSL_CERT_FILE).
func (s *Server) WriteCA(t testing.TB, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: s.TLS.Certificate().Raw})
	path := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Add publishes a package of NAMESPACE/TYPE at version for platform
// (OS_ARCH), whose zip holds files (name -> content, mode 0755).
func (s *Server) Add(t testing.TB, nsType, version, platform string, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pkgs[nsType] == nil {
		s.pkgs[nsType] = map[string]map[string][]byte{}
	}
	if s.pkgs[nsType][version] == nil {
		s.pkgs[nsType][version] = map[string][]byte{}
	}
	s.pkgs[nsType][version][platform] = buf.Bytes()
	return buf.Bytes()
}

// Remove withdraws a version.
func (s *Server) Remove(nsType, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pkgs[nsType], version)
}

// AddBinary publishes a built provider binary as
// terraform-provider-TYPE_vVERSION in the zip.
func (s *Server) AddBinary(t testing.TB, nsType, version, platform, binary string) []byte {
	t.Helper()
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	typ := nsType[strings.Index(nsType, "/")+1:]
	return s.Add(t, nsType, version, platform, map[string][]byte{"terraform-provider-" + typ + "_v" + version: b})
}

func zipName(typ, version, platform string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, platform)
}

func (s *Server) sums(nsType, version string) []byte {
	typ := nsType[strings.Index(nsType, "/")+1:]
	var lines []string
	for plat, z := range s.pkgs[nsType][version] {
		sum := sha256.Sum256(z)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+zipName(typ, version, plat))
	}
	sort.Strings(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}

func (s *Server) servedSums(nsType, v string) []byte {
	if s.tamper == "sums" {
		return []byte(strings.Repeat("0", 64) + "  other.zip\n")
	}
	return s.sums(nsType, v)
}

func armored(t *openpgp.Entity) string {
	var buf bytes.Buffer
	w, _ := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	t.Serialize(w)
	w.Close()
	return buf.String()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Requests[r.URL.Path]++
	path := r.URL.Path
	if b, ok := s.Files[path]; ok {
		w.Write(b)
		return
	}
	if path == "/.well-known/terraform.json" {
		writeJSON(w, map[string]string{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"})
		return
	}
	if rest, ok := strings.CutPrefix(path, "/v1/modules/"); ok {
		s.serveModules(w, r, rest)
		return
	}
	if rest, ok := strings.CutPrefix(path, "/v1/providers/"); ok {
		s.serveProviders(w, r, rest)
		return
	}
	if rest, ok := strings.CutPrefix(path, "/files/"); ok {
		s.serveFiles(w, r, rest)
		return
	}
	if rest, ok := strings.CutPrefix(path, "/mirror/"); ok {
		s.serveMirror(w, r, rest)
		return
	}
	http.NotFound(w, r)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// serveModules serves the module registry protocol below /v1/modules/:
// NS/NAME/SYSTEM/versions and NS/NAME/SYSTEM/VERSION/download.
func (s *Server) serveModules(w http.ResponseWriter, r *http.Request, rest string) {
	parts := strings.Split(rest, "/")
	if len(parts) < 4 {
		http.NotFound(w, r)
		return
	}
	vers, ok := s.Modules[strings.Join(parts[:3], "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if len(parts) == 4 && parts[3] == "versions" {
		type ver struct {
			Version string `json:"version"`
		}
		out := []ver{}
		for v := range vers {
			out = append(out, ver{v})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
		writeJSON(w, map[string]any{"modules": []any{map[string]any{"versions": out}}})
		return
	}
	if len(parts) == 5 && parts[4] == "download" {
		if get, ok := vers[parts[3]]; ok {
			w.Header().Set("X-Terraform-Get", get)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	http.NotFound(w, r)
}

// serveProviders serves the provider registry protocol below
// /v1/providers/: NS/TYPE/versions and NS/TYPE/VERSION/download/OS/ARCH.
func (s *Server) serveProviders(w http.ResponseWriter, r *http.Request, rest string) {
	parts := strings.Split(rest, "/")
	if len(parts) < 3 {
		http.NotFound(w, r)
		return
	}
	nsType := parts[0] + "/" + parts[1]
	vers, ok := s.pkgs[nsType]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if len(parts) == 3 && parts[2] == "versions" {
		writeJSON(w, s.providerVersions(nsType, vers))
		return
	}
	// NS/TYPE/VERSION/download/OS/ARCH, or the files below.
	if len(parts) == 6 && parts[3] == "download" {
		v, plat := parts[2], parts[4]+"_"+parts[5]
		z, ok := vers[v][plat]
		if !ok {
			http.NotFound(w, r)
			return
		}
		sum := sha256.Sum256(z)
		keys := []map[string]string{{"key_id": s.Key.PrimaryKey.KeyIdString(), "ascii_armor": armored(s.Key)}}
		if s.tamper == "unknown-key" {
			keys = []map[string]string{{"key_id": s.OtherKey.PrimaryKey.KeyIdString(), "ascii_armor": armored(s.OtherKey)}}
		}
		base := fmt.Sprintf("/files/%s/%s/", nsType, v)
		writeJSON(w, map[string]any{
			"protocols": []string{"5.0", "6.0"}, "os": parts[4], "arch": parts[5],
			"filename":              zipName(parts[1], v, plat),
			"download_url":          base + zipName(parts[1], v, plat),
			"shasums_url":           base + "SHA256SUMS",
			"shasums_signature_url": base + "SHA256SUMS.sig",
			"shasum":                hex.EncodeToString(sum[:]),
			"signing_keys":          map[string]any{"gpg_public_keys": keys},
		})
		return
	}
	http.NotFound(w, r)
}

// providerVersions is the versions document of the provider nsType.
func (s *Server) providerVersions(nsType string, vers map[string]map[string][]byte) any {
	type plat struct {
		OS   string `json:"os"`
		Arch string `json:"arch"`
	}
	type ver struct {
		Version   string   `json:"version"`
		Protocols []string `json:"protocols"`
		Platforms []plat   `json:"platforms"`
	}
	out := []ver{}
	for v, plats := range vers {
		e := ver{Version: v, Protocols: []string{"5.0", "6.0"}, Platforms: []plat{}}
		if ps, ok := s.Protocols[nsType+" "+v]; ok {
			e.Protocols = ps
		}
		for p := range plats {
			o, a, _ := strings.Cut(p, "_")
			e.Platforms = append(e.Platforms, plat{o, a})
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return map[string]any{"versions": out}
}

// serveFiles serves what a provider's download document points to below
// /files/NS/TYPE/VERSION/: the checksums, their signature and the zips,
// as tampered with or stalled when the test asks.
func (s *Server) serveFiles(w http.ResponseWriter, r *http.Request, rest string) {
	parts := strings.Split(rest, "/")
	if len(parts) != 4 {
		http.NotFound(w, r)
		return
	}
	nsType, v, file := parts[0]+"/"+parts[1], parts[2], parts[3]
	switch file {
	case "SHA256SUMS":
		w.Write(s.servedSums(nsType, v))
		return
	case "SHA256SUMS.sig":
		signer := s.Key
		if s.tamper == "sig" {
			signer = s.OtherKey
		}
		var buf bytes.Buffer
		if err := openpgp.DetachSign(&buf, signer, bytes.NewReader(s.servedSums(nsType, v)), nil); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Write(buf.Bytes())
		return
	}
	for plat, z := range s.pkgs[nsType][v] {
		if file == zipName(parts[1], v, plat) {
			if s.tamper == "zip" {
				z = append(append([]byte{}, z...), 0)
			}
			if s.Stall {
				w.Header().Set("Content-Length", fmt.Sprint(len(z)))
				w.Write(z[:len(z)/2])
				w.(http.Flusher).Flush()
				s.mu.Unlock()
				if s.Stalled != nil {
					s.Stalled <- struct{}{}
				}
				<-r.Context().Done()
				s.mu.Lock()
				return
			}
			w.Write(z)
			return
		}
	}
	http.NotFound(w, r)
}

// serveMirror serves the network mirror protocol below /mirror/:
// HOST/NS/TYPE/index.json, HOST/NS/TYPE/VERSION.json and the zips.
func (s *Server) serveMirror(w http.ResponseWriter, r *http.Request, rest string) {
	parts := strings.Split(rest, "/")
	if len(parts) != 4 {
		http.NotFound(w, r)
		return
	}
	nsType, file := parts[1]+"/"+parts[2], parts[3]
	vers, ok := s.pkgs[nsType]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if file == "index.json" {
		out := map[string]any{}
		for v := range vers {
			out[v] = map[string]any{}
		}
		writeJSON(w, map[string]any{"versions": out})
		return
	}
	if v, ok := strings.CutSuffix(file, ".json"); ok {
		archives := map[string]any{}
		for plat, z := range vers[v] {
			sum := sha256.Sum256(z)
			archives[plat] = map[string]any{"url": zipName(parts[2], v, plat), "hashes": []string{"zh:" + hex.EncodeToString(sum[:])}}
		}
		if len(archives) == 0 {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, map[string]any{"archives": archives})
		return
	}
	for v, plats := range vers {
		for plat, z := range plats {
			if file == zipName(parts[2], v, plat) {
				if s.tamper == "zip" {
					z = append(append([]byte{}, z...), 0)
				}
				w.Write(z)
				return
			}
		}
	}
	http.NotFound(w, r)
}
