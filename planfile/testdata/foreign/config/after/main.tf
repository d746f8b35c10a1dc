terraform {
  required_providers {
    fwtest = {
      source  = "registry.terraform.io/plankit/fwtest"
      version = "~> 1.0"
    }
  }
}

variable "password" {
  type      = string
  sensitive = true
  default   = "p4ss"
}

resource "terraform_data" "keep" {
  input = "same"
}

resource "terraform_data" "upd" {
  input = { a = "two", n = 2 }
}

resource "terraform_data" "rep" {
  input            = "r"
  triggers_replace = ["2"]
}

resource "terraform_data" "cbd" {
  triggers_replace = ["2"]
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "new" {
  input = "moves"
}

moved {
  from = terraform_data.old
  to   = terraform_data.new
}

resource "terraform_data" "created" {
  count = 2
  input = { idx = count.index, secret = var.password, up = terraform_data.rep.id }
}

module "box" {
  source = "./modules/box"
  label  = "second"
}

resource "fwtest_thing" "nested" {
  name   = "nested"
  value  = "v2"
  secret = "s2"
  single = { a = "y", s = "hidden" }
  list   = [{ a = "l", n = 1 }, { a = "m", n = 2 }]
  block {
    x = "b1"
  }
  block {
    x = "b2"
  }
}

import {
  to = fwtest_thing.adopted
  id = "imported-1"
}

resource "fwtest_thing" "adopted" {
  name  = "adopted"
  value = "from outside"
}

data "fwtest_thing" "lookup" {
  id = fwtest_thing.adopted.id
}

check "adopted_value" {
  assert {
    condition     = data.fwtest_thing.lookup.value == "from outside"
    error_message = "The adopted thing changed."
  }
}

output "box" {
  value = module.box.id
}

output "secret" {
  value     = var.password
  sensitive = true
}

output "created" {
  value = terraform_data.created[*].output
}
