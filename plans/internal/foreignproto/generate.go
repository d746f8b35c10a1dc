// Package foreignproto is the generated protobuf code of the `tfplan` (and
// `tfschemas`) entries of plan files Terraform and OpenTofu write
// (foreign.proto). Only plans/foreign.go imports it.
//
// Regenerate after editing foreign.proto with `go generate .` in this
// directory: it needs protoc on PATH and uses the protoc-gen-go pinned as a
// tool in go.mod.
package foreignproto

//go:generate sh -c "protoc --plugin=protoc-gen-go=`go tool -n protoc-gen-go` --go_out=. --go_opt=paths=source_relative foreign.proto"
