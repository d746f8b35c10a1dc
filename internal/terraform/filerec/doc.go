// Package filerec makes a plan's file reads travel with the plan. During
// planning, a Recorder stands between the file functions (file,
// templatefile, fileexists, fileset, filesha256, ...) and the disk and
// keeps what they saw; the plan carries it (plans.Plan.Files) in its
// archive. At apply, a Replay serves those files instead of the disk, so the
// configuration is evaluated with the bytes that were reviewed, from any
// directory, on any machine; only files the plan never looked at (such as
// paths known only at apply) are read from the disk.
package filerec
