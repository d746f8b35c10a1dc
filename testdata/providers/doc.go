// Package providers is a test-only module holding small Terraform providers
// built from the real SDKs, so that plankit's plugin client is tested over
// the real wire protocol:
//
//   - fwtest:  terraform-plugin-framework, protocol 6 only
//     (registry.terraform.io/plankit/fwtest)
//   - sdktest: terraform-plugin-sdk/v2, protocol 5 only, legacy type system
//     (registry.terraform.io/plankit/sdktest)
//   - rawtest: terraform-plugin-go alone (tfprotov6, tf6server), protocol 6
//     (registry.terraform.io/plankit/rawtest): as cheap per call as a
//     provider can be, for benchmarks of plankit's side of the wire; it
//     keeps no objects of its own
//
// Both have an ephemeral resource reading a secret from a file and logging
// each Open, Renew and Close to a file named in its configuration:
// fwtest_secret (the framework's, with renew_seconds) and sdktest_secret
// (added at the protocol level with terraform-plugin-go: the SDK has
// none).
//
// fwtest and sdktest keep their objects as JSON files in a directory named by the
// provider configuration's state_dir argument, else by FWTEST_STATE_DIR or
// SDKTEST_STATE_DIR, so tests can look at (and tamper with) the real
// objects. The plankit package providers/plugin/plugintest builds them.
package providers
