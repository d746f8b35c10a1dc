// Package plugin runs provider binaries out of process and drives them over
// Terraform's plugin protocol, versions 5 and 6, exactly as Terraform and
// OpenTofu do: github.com/hashicorp/go-plugin with gRPC only, the
// TF_PLUGIN_MAGIC_COOKIE handshake, automatic mutual TLS, and the protocol
// version negotiated with the binary (one that offers only 5 or only 6
// works). Every published provider binary works unchanged.
//
// Each call of a Factory starts one provider process. The process lives
// until Close (StopProvider, then go-plugin's graceful shutdown and a kill
// after its grace period) or CleanupClients, which the commands call on
// exit and on Ctrl-C. On Linux the process gets SIGKILL when plankit dies
// (Pdeathsig) and runs in its own process group, so no provider outlives
// plankit, even one killed with SIGKILL.
//
// The provider's stderr is kept (its tail is quoted when the provider
// crashes: a panic mid-apply becomes an error naming the provider and
// quoting the panic), copied to Options.Stderr when set, and logged to
// plankit's stderr when TF_LOG (or TF_LOG_PROVIDER) is set.
//
// Values cross the wire as cty msgpack of the schema's implied type, so
// unknown values and their refinements survive, and dynamically-typed
// attributes carry their type. Schemas are fetched once per process, and
// once per run for providers that declare get_provider_schema_optional.
//
// The translation between providers.Interface and the wire is written
// once, in grpc_provider.go: provider[W] looks up schemas, encodes and
// decodes values, turns failed calls into diagnostics and assembles the
// responses. W is a protocol adapter (the protocol interface): wire5 in
// grpc_provider5.go, wire6 in grpc_provider6.go. An adapter has one method
// per RPC taking and returning protocol-neutral values (msgpack bytes,
// wireValue, request, response) and only copies fields to and from its
// protocol's messages; it also translates that protocol's schema,
// diagnostic and attribute path messages, whose shapes differ (protocol 5
// has no nested attributes). provider is generic over W rather than
// holding an interface value so that each protocol's calls are direct.
//
// Generated protocol code lives under internal/tfplugin5 and
// internal/tfplugin6 and is imported only by the two adapter files
// (wall_test.go checks it). The .proto files there are the source;
// regenerate the Go code with
//
//	internal/providers/plugin/internal/generate.sh
package plugin
