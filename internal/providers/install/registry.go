package install

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	version "github.com/hashicorp/go-version"

	"github.com/plankit/plankit/addrs"
)

// maxJSON bounds a registry or mirror JSON response.
const maxJSON = 16 << 20

// maxZip bounds a downloaded provider package.
const maxZip = 2 << 30

// hashicorpFingerprint is HashiCorp's provider signing key: packages
// signed with it are reported "signed by HashiCorp", as Terraform does.
const hashicorpFingerprint = "C874011F0AB405110D02105534365D9472D7468F"

// remoteVersion is one version a registry or mirror offers.
type remoteVersion struct {
	Version *version.Version
	// Platforms are the OS_ARCH it has packages for (nil: unknown, as a
	// network mirror's index does not say).
	Platforms []string
}

// fetched is a downloaded, authenticated package.
type fetched struct {
	// Zip is the downloaded file (in a temporary directory).
	Zip string
	// Hashes are the hashes the source vouches for, for every platform:
	// zh: from a registry's SHA256SUMS, h1: from a mirror's VERSION.json.
	Hashes []string
	// Auth says how it was authenticated, for the "- Installed" line:
	// "signed by HashiCorp", "self-signed, key ID ...", "verified checksum";
	// "" when nothing was checked.
	Auth string
}

// remote is a network source: the origin registry or a network mirror.
type remote interface {
	versions(ctx context.Context, p addrs.Provider) ([]remoteVersion, error)
	fetch(ctx context.Context, p addrs.Provider, v *version.Version, platform, tmpDir string) (*fetched, error)
	String() string
}

// registrySource is the provider registry protocol of the provider's
// own hostname (providers.v1).
type registrySource struct {
	client *http.Client
	bar    io.Writer

	mu       sync.Mutex
	services map[string]*url.URL // hostname -> providers.v1 base
}

func (r *registrySource) String() string { return "the origin registry" }

// errNoProvider is a 404 for the provider: it does not exist there.
var errNoProvider = errors.New("no such provider")

// discover returns the providers.v1 base URL of host
// (/.well-known/terraform.json).
func (r *registrySource) discover(ctx context.Context, host string) (*url.URL, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if u, ok := r.services[host]; ok {
		return u, nil
	}
	base := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	var doc map[string]any
	if err := getJSON(ctx, r.client, base.String(), &doc); err != nil {
		return nil, fmt.Errorf("service discovery for %s failed: %w", host, err)
	}
	raw, ok := doc["providers.v1"].(string)
	if !ok {
		return nil, fmt.Errorf("host %s does not offer a provider registry (its %s has no \"providers.v1\")", host, base)
	}
	u, err := base.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("host %s gives an invalid providers.v1 URL %q: %w", host, raw, err)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if r.services == nil {
		r.services = map[string]*url.URL{}
	}
	r.services[host] = u
	return u, nil
}

func (r *registrySource) versions(ctx context.Context, p addrs.Provider) ([]remoteVersion, error) {
	base, err := r.discover(ctx, p.Hostname)
	if err != nil {
		return nil, err
	}
	u, _ := base.Parse(url.PathEscape(p.Namespace) + "/" + url.PathEscape(p.Type) + "/versions")
	var doc struct {
		Versions []struct {
			Version   string   `json:"version"`
			Protocols []string `json:"protocols"`
			Platforms []struct {
				OS   string `json:"os"`
				Arch string `json:"arch"`
			} `json:"platforms"`
		} `json:"versions"`
	}
	if err := getJSON(ctx, r.client, u.String(), &doc); err != nil {
		return nil, err
	}
	var out []remoteVersion
	for _, rv := range doc.Versions {
		v, err := version.NewVersion(rv.Version)
		if err != nil {
			continue // Terraform ignores versions it cannot parse
		}
		if !supportedProtocol(rv.Protocols) {
			continue // a release plankit cannot talk to, as Terraform skips it
		}
		plats := []string{}
		for _, pl := range rv.Platforms {
			plats = append(plats, pl.OS+"_"+pl.Arch)
		}
		out = append(out, remoteVersion{Version: v, Platforms: plats})
	}
	return out, nil
}

type downloadDoc struct {
	Filename            string `json:"filename"`
	DownloadURL         string `json:"download_url"`
	SHASumsURL          string `json:"shasums_url"`
	SHASumsSignatureURL string `json:"shasums_signature_url"`
	SHASum              string `json:"shasum"`
	SigningKeys         struct {
		GPGPublicKeys []struct {
			KeyID      string `json:"key_id"`
			ASCIIArmor string `json:"ascii_armor"`
		} `json:"gpg_public_keys"`
	} `json:"signing_keys"`
}

func (r *registrySource) fetch(ctx context.Context, p addrs.Provider, v *version.Version, platform, tmpDir string) (*fetched, error) {
	base, err := r.discover(ctx, p.Hostname)
	if err != nil {
		return nil, err
	}
	goos, arch, _ := strings.Cut(platform, "_")
	u, _ := base.Parse(url.PathEscape(p.Namespace) + "/" + url.PathEscape(p.Type) + "/" + url.PathEscape(v.Original()) + "/download/" + goos + "/" + arch)
	var doc downloadDoc
	if err := getJSON(ctx, r.client, u.String(), &doc); err != nil {
		if errors.Is(err, errNoProvider) {
			return nil, fmt.Errorf("the registry has no package of %s %s for %s", p.ForDisplay(), v, platform)
		}
		return nil, err
	}
	ref := func(s, what string) (string, error) {
		if s == "" {
			return "", fmt.Errorf("the registry's download response for %s %s (%s) has no %s", p.ForDisplay(), v, u, what)
		}
		t, err := u.Parse(s)
		if err != nil {
			return "", fmt.Errorf("the registry's %s %q is not a URL: %w", what, s, err)
		}
		return t.String(), nil
	}
	dl, err := ref(doc.DownloadURL, "download_url")
	if err != nil {
		return nil, err
	}
	sumsURL, err := ref(doc.SHASumsURL, "shasums_url")
	if err != nil {
		return nil, err
	}
	sigURL, err := ref(doc.SHASumsSignatureURL, "shasums_signature_url")
	if err != nil {
		return nil, err
	}
	want, err := hex.DecodeString(doc.SHASum)
	if err != nil || len(want) != sha256.Size {
		return nil, fmt.Errorf("the registry's shasum %q for %s %s is not a SHA-256 in hex", doc.SHASum, p.ForDisplay(), v)
	}
	sums, err := getBytes(ctx, r.client, sumsURL, maxJSON)
	if err != nil {
		return nil, fmt.Errorf("downloading the checksums %s: %w", sumsURL, err)
	}
	sig, err := getBytes(ctx, r.client, sigURL, maxJSON)
	if err != nil {
		return nil, fmt.Errorf("downloading the checksums' signature %s: %w", sigURL, err)
	}
	auth, err := checkSignature(sums, sig, doc)
	if err != nil {
		return nil, fmt.Errorf("the checksums of %s %s (%s) are not signed by a key the registry lists for it: %w", p.ForDisplay(), v, sumsURL, err)
	}
	listed, byName := parseSHA256SUMS(sums)
	if got, ok := byName[doc.Filename]; !ok || got != doc.SHASum {
		return nil, fmt.Errorf("the signed checksums %s do not list %s with the checksum the registry gives (%s)", sumsURL, doc.Filename, doc.SHASum)
	}
	zipPath, sum, err := download(ctx, r.client, dl, tmpDir, r.bar)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(sum, want) {
		return nil, fmt.Errorf("checksum mismatch: %s has SHA-256 %x, but the registry's signed checksums say %s", dl, sum, doc.SHASum)
	}
	return &fetched{Zip: zipPath, Hashes: listed, Auth: auth}, nil
}

// checkSignature verifies the detached signature sig of the SHA256SUMS
// file against the registry's keys and says who signed it.
func checkSignature(sums, sig []byte, doc downloadDoc) (string, error) {
	var keyring openpgp.EntityList
	for _, k := range doc.SigningKeys.GPGPublicKeys {
		el, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k.ASCIIArmor))
		if err != nil {
			return "", fmt.Errorf("the registry's key %s cannot be read: %w", k.KeyID, err)
		}
		keyring = append(keyring, el...)
	}
	if len(keyring) == 0 {
		return "", errors.New("the registry lists no signing key")
	}
	signer, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(sums), bytes.NewReader(sig), nil)
	if err != nil {
		return "", err
	}
	fp := strings.ToUpper(hex.EncodeToString(signer.PrimaryKey.Fingerprint))
	if fp == hashicorpFingerprint {
		return "signed by HashiCorp", nil
	}
	return "self-signed, key ID " + signer.PrimaryKey.KeyIdString(), nil
}

// parseSHA256SUMS returns the zh: hash of every .zip the file lists, and
// the hex checksum by file name.
func parseSHA256SUMS(src []byte) ([]string, map[string]string) {
	var zh []string
	by := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		if b, err := hex.DecodeString(f[0]); err != nil || len(b) != sha256.Size {
			continue
		}
		name := strings.TrimPrefix(f[1], "*")
		by[name] = strings.ToLower(f[0])
		if strings.HasSuffix(name, ".zip") {
			zh = append(zh, "zh:"+strings.ToLower(f[0]))
		}
	}
	return zh, by
}

// getJSON GETs url into v; a 404 is errNoProvider.
func getJSON(ctx context.Context, c *http.Client, u string, v any) error {
	b, err := getBytes(ctx, c, u, maxJSON)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s returned invalid JSON: %w", u, err)
	}
	return nil
}

func getBytes(ctx context.Context, c *http.Client, u string, limit int64) ([]byte, error) {
	resp, err := get(ctx, c, u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s returned more than %d bytes", u, limit)
	}
	return b, nil
}

func get(ctx context.Context, c *http.Client, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "plankit")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach %s: %w", u, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %w (404 Not Found)", u, errNoProvider)
	case resp.StatusCode != http.StatusOK:
		resp.Body.Close()
		return nil, fmt.Errorf("%s returned %s", u, resp.Status)
	}
	return resp, nil
}

// download writes u to a new file in dir and returns its path and
// SHA-256.
// A non-nil bar gets a progress line, redrawn in place ("\r"), erased
// at the end.
func download(ctx context.Context, c *http.Client, u, dir string, bar io.Writer) (string, []byte, error) {
	resp, err := get(ctx, c, u)
	if err != nil {
		return "", nil, fmt.Errorf("downloading %s: %w", u, err)
	}
	defer resp.Body.Close()
	f, err := os.CreateTemp(dir, "download-*.zip")
	if err != nil {
		return "", nil, err
	}
	h := sha256.New()
	var body io.Reader = io.LimitReader(resp.Body, maxZip+1)
	if bar != nil {
		pr := &progressReader{r: body, w: bar, total: resp.ContentLength}
		defer pr.clear()
		body = pr
	}
	n, err := io.Copy(io.MultiWriter(f, h), body)
	if err == nil && n > maxZip {
		err = fmt.Errorf("more than %d bytes", int64(maxZip))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", nil, fmt.Errorf("downloading %s: %w", u, err)
	}
	return f.Name(), h.Sum(nil), nil
}

// mirrorSource is a provider network mirror.
type mirrorSource struct {
	client *http.Client
	bar    io.Writer
	base   *url.URL
}

func (m *mirrorSource) String() string { return "network mirror " + m.base.String() }

func (m *mirrorSource) providerURL(p addrs.Provider, file string) *url.URL {
	u, _ := m.base.Parse("./" + url.PathEscape(p.Hostname) + "/" + url.PathEscape(p.Namespace) + "/" + url.PathEscape(p.Type) + "/" + file)
	return u
}

func (m *mirrorSource) versions(ctx context.Context, p addrs.Provider) ([]remoteVersion, error) {
	var doc struct {
		Versions map[string]json.RawMessage `json:"versions"`
	}
	if err := getJSON(ctx, m.client, m.providerURL(p, "index.json").String(), &doc); err != nil {
		return nil, err
	}
	var out []remoteVersion
	for s := range doc.Versions {
		v, err := version.NewVersion(s)
		if err != nil {
			continue
		}
		out = append(out, remoteVersion{Version: v})
	}
	return out, nil
}

func (m *mirrorSource) fetch(ctx context.Context, p addrs.Provider, v *version.Version, platform, tmpDir string) (*fetched, error) {
	vu := m.providerURL(p, url.PathEscape(v.Original())+".json")
	var doc struct {
		Archives map[string]struct {
			URL    string   `json:"url"`
			Hashes []string `json:"hashes"`
		} `json:"archives"`
	}
	if err := getJSON(ctx, m.client, vu.String(), &doc); err != nil {
		return nil, err
	}
	arch, ok := doc.Archives[platform]
	if !ok {
		return nil, fmt.Errorf("%s has no package of %s %s for %s", m, p.ForDisplay(), v, platform)
	}
	du, err := vu.Parse(arch.URL)
	if err != nil || arch.URL == "" {
		return nil, fmt.Errorf("%s gives an invalid archive URL %q for %s %s", m, arch.URL, p.ForDisplay(), v)
	}
	zipPath, sum, err := download(ctx, m.client, du.String(), tmpDir, m.bar)
	if err != nil {
		return nil, err
	}
	var all []string
	for _, a := range doc.Archives {
		all = append(all, a.Hashes...)
	}
	if len(arch.Hashes) == 0 {
		// Nothing checked: the installer reports what the lock file says.
		return &fetched{Zip: zipPath, Hashes: all}, nil
	}
	h1, err := HashZip(zipPath)
	if err != nil {
		return nil, fmt.Errorf("the package %s is not a valid zip: %w", du, err)
	}
	zh := "zh:" + hex.EncodeToString(sum)
	ok = false
	for _, h := range arch.Hashes {
		ok = ok || h == h1 || h == zh
	}
	if !ok {
		return nil, fmt.Errorf("checksum mismatch: the package %s has hash %s, none of the hashes %s lists for it (%s)", du, h1, vu, strings.Join(arch.Hashes, ", "))
	}
	return &fetched{Zip: zipPath, Hashes: all, Auth: "verified checksum"}, nil
}

// supportedProtocol reports whether a release's plugin protocol versions
// ("5.0", "6.2"; none listed: assumed compatible) include 5 or 6.
func supportedProtocol(protocols []string) bool {
	if len(protocols) == 0 {
		return true
	}
	for _, p := range protocols {
		major, _, _ := strings.Cut(p, ".")
		if major == "5" || major == "6" {
			return true
		}
	}
	return false
}

// progressReader draws a download progress bar on a terminal.
type progressReader struct {
	r     io.Reader
	w     io.Writer
	total int64
	done  int64
	last  time.Time
	drawn bool
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		p.draw()
	}
	return n, err
}

func (p *progressReader) draw() {
	const width = 30
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r  %.1f MiB", mib(p.done))
	} else {
		filled := int(float64(width) * float64(p.done) / float64(p.total))
		filled = min(max(filled, 0), width)
		fmt.Fprintf(p.w, "\r  [%s%s] %.1f/%.1f MiB", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), mib(p.done), mib(p.total))
	}
	p.drawn = true
}

func (p *progressReader) clear() {
	if p.drawn {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 60))
	}
}
