package pg

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzRedactConnStr: whatever the string, redaction does not panic, and
// a password put in a URL or in key=value pairs never survives it (nor the
// error-message redactor).
func FuzzRedactConnStr(f *testing.F) {
	f.Add("postgres://u:pw@h/db", "s3cr3t", "db.example.com")
	f.Add("host=h password='a b' user=u", "x'y\\z", "h")
	f.Add("", "pässwörd", "10.0.0.1:5432")
	f.Fuzz(func(t *testing.T, raw, pw, host string) {
		_ = RedactConnStr(raw)
		_ = secretsOf(raw, "").Replace(raw)
		if len(pw) < 4 || strings.ContainsAny(host, "/@?#' \\=") || strings.Contains(host, pw) || strings.Contains("postgres://u@/dbhostuserdbname=", pw) {
			return
		}
		u := "postgres://deploy:" + url.QueryEscape(pw) + "@" + host + "/tfstate"
		if got := RedactConnStr(u); strings.Contains(got, pw) || strings.Contains(got, url.QueryEscape(pw)) {
			t.Errorf("URL %q redacted to %q keeps the password", u, got)
		}
		if got := secretsOf(u, "").Replace("failed: " + u); strings.Contains(got, pw) {
			t.Errorf("error redaction keeps the password: %q", got)
		}
		quoted := "'" + strings.ReplaceAll(strings.ReplaceAll(pw, `\`, `\\`), `'`, `\'`) + "'"
		dsn := "host=" + host + " user=deploy password=" + quoted + " dbname=tfstate"
		if got := RedactConnStr(dsn); strings.Contains(got, pw) {
			t.Errorf("DSN %q redacted to %q keeps the password", dsn, got)
		}
		if got := secretsOf(dsn, "").Replace("failed: " + dsn); strings.Contains(got, pw) {
			t.Errorf("error redaction keeps the password: %q", got)
		}
	})
}
