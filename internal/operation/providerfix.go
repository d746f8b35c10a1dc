package operation

import (
	"fmt"

	"github.com/plankit/plankit/internal/providers/install"
)

// ProviderFix says, for one command, the one way to install a provider
// discovery did not find ("" when the error's detail says what to do).
type ProviderFix func(k install.Kind) string

// InitFix: in a working directory, plan init installs providers.
func InitFix(k install.Kind) string {
	switch k {
	case install.NotFound, install.NoMatchingVersion, install.BuiltinVersion:
		return "To install it, run plan init. It installs from the provider's registry, or with -plugin-dir=DIR from a directory of provider packages (HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vVERSION, or HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip)."
	case install.LockedVersionMissing:
		return "To install the locked version, run plan init (plan init -upgrade selects the newest version the constraints allow instead)."
	}
	return ""
}

// ApplyFix: a saved plan's providers are the versions its lock file
// records, which apply -install installs.
func ApplyFix(planFile string) ProviderFix {
	return func(k install.Kind) string {
		switch k {
		case install.NotFound, install.NoMatchingVersion, install.BuiltinVersion, install.LockedVersionMissing:
			return fmt.Sprintf("To install the versions the plan's lock file records, run apply -install %s.", planFile)
		}
		return ""
	}
}

// GraphFix: plan graph -plan=FILE installs nothing; it is pointed at the
// packages.
func GraphFix(k install.Kind) string {
	switch k {
	case install.NotFound, install.NoMatchingVersion, install.BuiltinVersion, install.LockedVersionMissing:
		return "To draw the plan's graph, pass -plugin-dir=DIR naming a directory that holds the version the plan's lock file records."
	}
	return ""
}
