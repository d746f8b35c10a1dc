# This file is written by plankit when it selects provider versions.
# Edit version constraints in the configuration instead: changes made here
# are overwritten the next time the file is written.

provider "example.com/acme/widget" {
  version = "0.1.0-beta1"
}

provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.2"
  hashes = [
    "h1:x",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version     = "3.6.0"
  constraints = "~> 3.5"
  hashes = [
    "h1:a",
    "zh:b",
  ]
}
