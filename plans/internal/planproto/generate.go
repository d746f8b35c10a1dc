// Package planproto is the generated protobuf code of the `tfplan` entry of
// a plan archive (planfile.proto). Only plans/planproto.go imports it.
//
// Regenerate after editing planfile.proto with `go generate .` in this
// directory (see README.md): it needs protoc on PATH and uses the
// protoc-gen-go pinned as a tool in go.mod.
package planproto

//go:generate sh -c "protoc --plugin=protoc-gen-go=`go tool -n protoc-gen-go` --go_out=. --go_opt=paths=source_relative planfile.proto"
