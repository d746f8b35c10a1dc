// Package review turns opened plan archives into the outputs people
// review plans with outside a terminal: a Markdown summary sized for a
// pull-request comment (Markdown) and a self-contained HTML report with
// the change set's dependency graph (HTML). Both are made from the
// archive alone (the plan, the provider schemas it carries, the
// configuration members plan -out stored beside it) and never print a
// sensitive value: every diff goes through the human renderer
// (internal/command/render), which hides values marked sensitive.
//
// The input is an Archive per plan file: Load opens one, or a caller that
// already holds a planfile.Reader fills the struct itself.
//
// # The size rule
//
// Markdown fits the summary in Options.MaxBytes (DefaultMaxBytes, under
// GitHub's 65,536-character comment limit). Everything but the diffs is
// always kept: the archive facts, the counts, the list of every change
// with its action (destroys and replacements first), drift, changed
// outputs and failed or unknown checks. When the whole text is too long,
// diffs are left out one at a time, their change then listed on one line:
// first the diffs of changes that neither destroy nor replace anything,
// smallest change first (fewest changed attribute lines, then shortest
// diff, then address), then in the same order the diffs of destroys and
// replacements. If the text is still too long with no diff left, the
// one-line entries are left out from the end of each list, the
// destroys and replacements last; the text then says how many. The
// summary ends with a note naming what was left out and how to see it
// (plan show FILE, or the HTML report).
package review
