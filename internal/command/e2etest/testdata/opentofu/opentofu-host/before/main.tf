terraform {
  required_providers {
    fwtest = {
      source = "plankit/fwtest"
    }
  }
}

variable "value" {
  type    = string
  default = "one"
}

resource "fwtest_thing" "kept" {
  name  = "kept"
  value = var.value
}

resource "fwtest_thing" "same" {
  name = "same"
}
