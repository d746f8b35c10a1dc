package pg

import (
	"net/url"
	"strings"
	"unicode"
)

// RedactConnStr returns connStr without its password, in the same form (a
// postgres:// URL or key=value pairs), so it can be recorded in a plan
// archive and shown; the password then comes from PGPASSWORD or
// ~/.pgpass where it is used. A string that does not parse is replaced by
// an empty one rather than risk keeping a password.
func RedactConnStr(connStr string) string {
	s := strings.TrimSpace(connStr)
	if s == "" {
		return ""
	}
	if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
		q := u.Query()
		if q.Has("password") || q.Has("sslpassword") {
			q.Del("password")
			q.Del("sslpassword")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	pairs, ok := splitDSN(s)
	if !ok {
		return ""
	}
	var out []string
	for _, p := range pairs {
		if secretKeys[p.key] {
			continue
		}
		out = append(out, p.raw)
	}
	return strings.Join(out, " ")
}

type dsnPair struct{ key, val, raw string }

// secretKeys are the libpq parameters that hold secrets.
var secretKeys = map[string]bool{"password": true, "sslpassword": true}

// splitDSN splits libpq key=value pairs (values optionally single-quoted,
// with backslash escapes).
func splitDSN(s string) ([]dsnPair, bool) {
	var out []dsnPair
	i := 0
	for {
		for i < len(s) && unicode.IsSpace(rune(s[i])) {
			i++
		}
		if i >= len(s) {
			return out, true
		}
		start := i
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return nil, false
		}
		key := strings.TrimSpace(s[i : i+eq])
		i += eq + 1
		for i < len(s) && s[i] == ' ' {
			i++
		}
		var val strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '\\' && i+1 < len(s) {
					val.WriteByte(s[i+1])
					i += 2
					continue
				}
				if c == '\'' {
					i++
					closed = true
					break
				}
				val.WriteByte(c)
				i++
			}
			if !closed {
				return nil, false
			}
		} else {
			for i < len(s) && !unicode.IsSpace(rune(s[i])) {
				if s[i] == '\\' && i+1 < len(s) {
					val.WriteByte(s[i+1])
					i += 2
					continue
				}
				val.WriteByte(s[i])
				i++
			}
		}
		out = append(out, dsnPair{key: key, val: val.String(), raw: s[start:i]})
	}
}

// secretsOf returns a replacer that hides the password of connStr (as
// written, URL-decoded and URL-encoded) and password, in error messages.
func secretsOf(connStr, password string) *strings.Replacer {
	var secrets []string
	add := func(p string) {
		if len(p) > 0 {
			secrets = append(secrets, p)
		}
	}
	add(password)
	s := strings.TrimSpace(connStr)
	if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
		if u, err := url.Parse(s); err == nil {
			if p, ok := u.User.Password(); ok {
				add(p)
				add(url.QueryEscape(p))
				add(url.PathEscape(p))
			}
			add(u.Query().Get("password"))
			add(u.Query().Get("sslpassword"))
		} else if at := strings.LastIndexByte(s, '@'); at > 0 {
			// Unparsable URL: hide everything between "://" and "@".
			add(s[strings.Index(s, "://")+3 : at])
		}
	} else if pairs, ok := splitDSN(s); ok {
		for _, p := range pairs {
			if secretKeys[p.key] {
				add(p.val)
				add(p.raw)
			}
		}
	} else if i := strings.Index(s, "password="); i >= 0 {
		add(s[i+len("password="):])
	}
	var args []string
	// Longest first, so a secret containing another is replaced whole.
	for len(secrets) > 0 {
		li := 0
		for i, x := range secrets {
			if len(x) > len(secrets[li]) {
				li = i
			}
		}
		args = append(args, secrets[li], "*****")
		secrets = append(secrets[:li], secrets[li+1:]...)
	}
	return strings.NewReplacer(args...)
}

// redactString hides the secrets r knows in s.
func redactString(s string, r *strings.Replacer) string { return r.Replace(s) }
