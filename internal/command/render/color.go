package render

import "strings"

// Colorizer wraps text in ANSI colour sequences when enabled; with colour
// off it returns the text unchanged, so the same rendering code serves
// terminals, -no-color and golden files.
type Colorizer struct {
	Enabled bool
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiGray   = "\x1b[90m"
)

func (c Colorizer) wrap(code, s string) string {
	if !c.Enabled || s == "" {
		return s
	}
	return code + s + ansiReset
}

// Bold returns s in bold.
func (c Colorizer) Bold(s string) string { return c.wrap(ansiBold, s) }

// Red returns s in red (destroy, errors).
func (c Colorizer) Red(s string) string { return c.wrap(ansiRed, s) }

// Green returns s in green (create, success).
func (c Colorizer) Green(s string) string { return c.wrap(ansiGreen, s) }

// Yellow returns s in yellow (update, warnings).
func (c Colorizer) Yellow(s string) string { return c.wrap(ansiYellow, s) }

// Cyan returns s in cyan (read).
func (c Colorizer) Cyan(s string) string { return c.wrap(ansiCyan, s) }

// Gray returns s dimmed (comments such as "# forces replacement").
func (c Colorizer) Gray(s string) string { return c.wrap(ansiGray, s) }

// symbol colours an action symbol the way users know it: green creates,
// yellow updates, red destroys, cyan reads; a replace colours each half.
func (c Colorizer) symbol(sym string) string {
	switch strings.TrimSpace(sym) {
	case "+":
		return strings.Replace(sym, "+", c.Green("+"), 1)
	case "-":
		return strings.Replace(sym, "-", c.Red("-"), 1)
	case ".":
		return strings.Replace(sym, ".", c.Red("."), 1)
	case "~":
		return strings.Replace(sym, "~", c.Yellow("~"), 1)
	case "<=":
		return strings.Replace(sym, "<=", c.Cyan("<="), 1)
	case "-/+":
		return c.Red("-") + "/" + c.Green("+")
	case "+/-":
		return c.Green("+") + "/" + c.Red("-")
	}
	return sym
}
