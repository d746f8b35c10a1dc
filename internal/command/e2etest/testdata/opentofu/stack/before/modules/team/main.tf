terraform {
  required_providers {
    fwtest = {
      source = "registry.terraform.io/plankit/fwtest"
    }
  }
}

variable "name" {
  type = string
}

variable "limit" {
  type = number
}

variable "algo" {
  type = string
}

variable "tags" {
  type = list(string)
}

resource "fwtest_thing" "db" {
  name   = var.name
  value  = "${var.algo}-${var.limit}"
  secret = "s-${var.name}"
}

resource "terraform_data" "owner" {
  input = {
    name = var.name
    tags = var.tags
  }
}

output "db_id" {
  value = fwtest_thing.db.id
}

output "owner" {
  value = terraform_data.owner.output
}
