terraform {
  required_providers {
    fwtest = {
      source = "registry.terraform.io/plankit/fwtest"
    }
  }
}

variable "keys" {
  type = map(object({
    key_algorithm    = optional(string, "ECDSA")
    connection_limit = optional(number, 5)
    roles            = optional(list(string))
  }))
}

data "fwtest_thing" "existing" {
  id = "imported-1"
}

resource "fwtest_thing" "key" {
  for_each = var.keys
  name     = each.key
  value    = "${each.value.key_algorithm}/${each.value.connection_limit}"
}

resource "terraform_data" "roles" {
  for_each = var.keys
  input = {
    roles  = each.value.roles
    source = data.fwtest_thing.existing.value
  }
}

output "key_ids" {
  value = [for k in fwtest_thing.key : k.id]
}

output "existing" {
  value = data.fwtest_thing.existing.name
}
