terraform {
  required_providers {
    fwtest = {
      source  = "registry.terraform.io/plankit/fwtest"
      version = "~> 1.0"
    }
  }
}

variable "teams" {
  type = map(object({
    name  = string
    limit = optional(number, 5)
    algo  = optional(string, "ECDSA")
    tags  = optional(list(string), [])
  }))
  default = {
    a = { name = "alpha" }
    b = { name = "beta", limit = 9, tags = ["x"] }
    c = { name = "gamma", algo = "RSA" }
  }
  validation {
    condition     = length(var.teams) > 0
    error_message = "At least one team."
  }
}

variable "rev" {
  type    = string
  default = "2"
}

variable "cn" {
  type    = string
  default = "example.com"
}

module "team" {
  source   = "./modules/team"
  for_each = var.teams
  name     = each.value.name
  limit    = each.value.limit
  algo     = each.value.algo
  tags     = each.value.tags
}

module "pki" {
  source = "./modules/pki"
  cn     = var.cn
}

resource "fwtest_thing" "base" {
  name  = "base"
  value = "v1"
}

data "fwtest_thing" "lookup" {
  id = fwtest_thing.base.id
}

resource "terraform_data" "summary" {
  input = { for k, t in module.team : k => t.db_id }
}

resource "terraform_data" "uses_pki" {
  input = module.pki.ca_cert_pem
  lifecycle {
    postcondition {
      condition     = self.output != ""
      error_message = "Empty certificate."
    }
  }
}

resource "terraform_data" "rev" {
  input = var.rev
}

resource "terraform_data" "replaced" {
  input = "stays"
  lifecycle {
    replace_triggered_by = [terraform_data.rev]
  }
}

resource "fwtest_thing" "secretive" {
  name   = "secretive-${var.rev}"
  secret = "hidden"
}

resource "terraform_data" "new_name" {
  input = "moved"
}

moved {
  from = terraform_data.old_name
  to   = terraform_data.new_name
}

import {
  to = fwtest_thing.adopted
  id = "imported-1"
}

resource "fwtest_thing" "adopted" {
  name  = "adopted"
  value = "from outside"
}

check "lookup_value" {
  assert {
    condition     = data.fwtest_thing.lookup.value == "v1"
    error_message = "The base thing changed."
  }
}

output "teams" {
  value = { for k, t in module.team : k => t.db_id }
}

output "lookup" {
  value = data.fwtest_thing.lookup.name
  precondition {
    condition     = data.fwtest_thing.lookup.name != ""
    error_message = "No name."
  }
}

output "secret" {
  value     = fwtest_thing.secretive.secret
  sensitive = true
}
