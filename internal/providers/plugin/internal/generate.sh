#!/bin/sh
# Regenerates the Go code of the plugin protocols from tfplugin5.proto and
# tfplugin6.proto. Run from anywhere:
#
#     internal/providers/plugin/internal/generate.sh
#
# It installs protoc with apt when it is missing and uses protoc-gen-go and
# protoc-gen-go-grpc at the versions pinned by the `tool` directives in
# go.mod. The generated files are committed: builds and CI never need protoc.
set -eu
cd "$(dirname "$0")"

if ! command -v protoc >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo apt-get update
	$sudo apt-get install -y protobuf-compiler
fi

gen_go=$(go tool -n protoc-gen-go)
gen_grpc=$(go tool -n protoc-gen-go-grpc)

for v in tfplugin5 tfplugin6; do
	protoc \
		--plugin=protoc-gen-go="$gen_go" \
		--plugin=protoc-gen-go-grpc="$gen_grpc" \
		--go_out=. --go_opt=paths=source_relative \
		--go-grpc_out=. --go-grpc_opt=paths=source_relative \
		"$v/$v.proto"
done
gofmt -l tfplugin5 tfplugin6
