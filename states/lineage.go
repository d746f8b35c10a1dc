package states

import (
	"fmt"

	uuid "github.com/hashicorp/go-uuid"
)

// NewLineage returns a new random lineage: a UUID that identifies one
// state's history, so that a state from another project is never mistaken
// for a newer serial of this one.
func NewLineage() string {
	id, err := uuid.GenerateUUID()
	if err != nil {
		// crypto/rand failing is not recoverable and not caused by user input.
		panic(fmt.Sprintf("cannot generate a lineage: %s", err))
	}
	return id
}
