package random

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func petSchema() *configschema.Block {
	return &configschema.Block{
		Description: "A random pet name: adverbs, an adjective and an animal, joined by a separator.",
		Attributes: map[string]*configschema.Attribute{
			"keepers":   keepersAttr(),
			"length":    {Type: cty.Number, Optional: true, Computed: true, Description: "Number of words (default 2)."},
			"prefix":    {Type: cty.String, Optional: true, Description: "A string put before the name, joined by the separator."},
			"separator": {Type: cty.String, Optional: true, Computed: true, Description: "Separator between words (default \"-\")."},
			"id":        computedString("The pet name."),
		},
	}
}

var petDefaults = map[string]cty.Value{"length": cty.NumberIntVal(2), "separator": cty.StringVal("-")}

func petResource() *framework.Resource {
	s := petSchema()
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Validate: func(cfg cty.Value) hcl.Diagnostics {
			if n, ok := framework.Int(cfg.GetAttr("length")); ok && n < 1 {
				return hcl.Diagnostics{tfdiags.WithPath(tfdiags.Error("Invalid length", "length must be at least 1."), cty.GetAttrPath("length"))}
			}
			return nil
		},
		Plan: planner(s, petDefaults),
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			n, ok := framework.Int(req.PlannedState.GetAttr("length"))
			if !ok || n < 1 || n > 1000 {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Error("Invalid length", "length must be a whole number between 1 and 1000.")}
			}
			sep := framework.Str(req.PlannedState.GetAttr("separator"))
			words, err := petWords(int(n))
			if err != nil {
				return cty.NilVal, tfdiags.FromError("Generating pet name", err)
			}
			// An empty prefix adds nothing, as in the real provider.
			if p := framework.Str(req.PlannedState.GetAttr("prefix")); p != "" {
				words = append([]string{p}, words...)
			}
			return framework.With(req.PlannedState, map[string]cty.Value{"id": cty.StringVal(strings.Join(words, sep))}), nil
		},
	}
}

// petWords returns n words: n-2 adverbs, an adjective and an animal (for
// n of 1, just the animal; for 2, adjective and animal).
func petWords(n int) ([]string, error) {
	out := make([]string, 0, n)
	add := func(list []string) error {
		i, err := cryptoIntn(len(list))
		if err == nil {
			out = append(out, list[i])
		}
		return err
	}
	for range n - 2 {
		if err := add(petAdverbs); err != nil {
			return nil, err
		}
	}
	if n >= 2 {
		if err := add(petAdjectives); err != nil {
			return nil, err
		}
	}
	return out, add(petNames)
}

// Word lists written for plankit (lower-case ASCII, no separators).
var (
	petAdverbs = strings.Fields(`boldly briskly calmly cheerfully closely deeply eagerly evenly fairly
		firmly freely gently gladly happily honestly humbly jointly kindly lightly loudly
		mainly merely mildly neatly nicely openly partly plainly politely quickly quietly
		rapidly rarely readily really safely sharply simply slowly smoothly softly
		steadily strongly surely swiftly tightly truly vastly warmly wisely yearly`)
	petAdjectives = strings.Fields(`able amber ample brave bright brisk busy calm civil clean clever cosmic
		crisp curious daring eager early easy fancy fast fine fleet fluent fond frank
		fresh gentle glad golden grand happy hardy honest humble jolly keen kind lively
		loyal lucky merry mighty modest neat noble patient polite proud quick quiet
		rapid ready robust rosy royal sharp shiny smart smooth solid sound steady
		sunny super sweet swift tidy tough true vivid warm wise witty`)
	petNames = strings.Fields(`alpaca antelope badger beagle bear beaver bison bobcat buffalo camel
		caribou cat cheetah chipmunk cobra condor cougar coyote crane cricket deer
		dingo dolphin donkey dove duck eagle eel elk emu falcon ferret finch fox
		gazelle gecko gibbon goat goose gopher gorilla grouse gull hamster hare hawk
		hedgehog heron horse hound ibex iguana impala jackal jaguar kingfisher kite
		koala lamb lemur leopard lion llama lobster lynx macaw magpie marmot marten
		mink mole moose mouse mule newt ocelot octopus oriole osprey otter owl ox
		panda panther parrot pelican penguin pheasant pigeon pony porpoise possum
		puffin puma quail rabbit raccoon raven robin salmon seal shark sheep shrew
		skunk sloth snail sparrow squid stork swan tapir tiger toad trout turkey
		turtle viper walrus weasel whale wolf wombat wren yak zebra`)
)
