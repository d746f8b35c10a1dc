//go:build !unix

package command

import "time"

// processUsage is not measured on this platform: phases report zeros.
func processUsage() (cpu time.Duration, peakRSS int64) { return 0, 0 }
