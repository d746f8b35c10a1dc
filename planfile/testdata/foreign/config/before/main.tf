terraform {
  required_providers {
    fwtest = {
      source  = "registry.terraform.io/plankit/fwtest"
      version = "~> 1.0"
    }
  }
}

resource "terraform_data" "keep" {
  input = "same"
}

resource "terraform_data" "upd" {
  input = { a = "one", n = 1 }
}

resource "terraform_data" "rep" {
  input            = "r"
  triggers_replace = ["1"]
}

resource "terraform_data" "cbd" {
  triggers_replace = ["1"]
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "gone" {
  input = "bye"
}

resource "terraform_data" "old" {
  input = "moves"
}

module "box" {
  source = "./modules/box"
  label  = "first"
}

resource "fwtest_thing" "nested" {
  name   = "nested"
  value  = "v1"
  secret = "s1"
  single = { a = "x", s = "hidden" }
  list   = [{ a = "l", n = 1 }]
  block {
    x = "b1"
  }
}
