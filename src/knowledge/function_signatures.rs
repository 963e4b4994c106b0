//! The parameters of the tools' built-in functions: how many a call must pass, whether more may
//! follow, and the type each converts its argument to. HCL checks a call's arguments against
//! them before it runs the function (hashicorp/hcl `hclsyntax/expression.go`,
//! `FunctionCallExpr.Value`: "Not enough function arguments", "Too many function arguments",
//! and "Invalid function argument" where an argument does not convert to its parameter's type).
//!
//! Read from Terraform's own description of its functions, `terraform metadata functions -json`
//! (hashicorp/terraform `internal/command/metadata_functions.go`, which prints the
//! `function.Spec` of each function of `internal/lang/functions.go`: those of
//! `internal/lang/funcs` and of go-cty's `cty/function/stdlib`), for 1.12, 1.14 and 1.15; 1.6 and
//! 1.9, which lack that command, were checked call by call against `validate` (too few and too
//! many arguments for every function): the signatures have not changed since 1.6, only functions
//! were added. Which release has which function is `features`' table.
//!
//! OpenTofu forked Terraform 1.6 with the same functions (opentofu/opentofu
//! `internal/lang/funcs`); the functions either tool added after the fork are judged only in the
//! tool whose signature is recorded here (`cidrcontains`: opentofu/opentofu
//! `internal/lang/funcs/cidr.go`). The `list` and `map` stubs and OpenTofu's `assume*` functions
//! are not described: their calls are not judged.

use super::View;

/// The type a parameter converts its argument to (go-cty's type names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParameterType {
    /// Any value: no conversion.
    Dynamic,
    String,
    Number,
    /// A list, a set or a map of the given element type (its go-cty friendly name).
    List(&'static str),
    Set(&'static str),
    Map(&'static str),
}

impl ParameterType {
    /// go-cty's friendly name of the type (`list of string`).
    pub(crate) fn friendly_name(self) -> String {
        match self {
            ParameterType::Dynamic => "dynamic".into(),
            ParameterType::String => "string".into(),
            ParameterType::Number => "number".into(),
            ParameterType::List(element) => format!("list of {element}"),
            ParameterType::Set(element) => format!("set of {element}"),
            ParameterType::Map(element) => format!("map of {element}"),
        }
    }
}

/// One parameter: its name (the tools' messages name it), type and whether it takes `null`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parameter {
    pub(crate) name: &'static str,
    pub(crate) ty: ParameterType,
    pub(crate) nullable: bool,
}

/// Which tools' function of this name has this signature.
#[derive(Debug, Clone, Copy)]
struct Tools {
    terraform: bool,
    opentofu: bool,
}

const BOTH: Tools = Tools {
    terraform: true,
    opentofu: true,
};
const TERRAFORM: Tools = Tools {
    terraform: true,
    opentofu: false,
};
const OPENTOFU: Tools = Tools {
    terraform: false,
    opentofu: true,
};

/// A function's parameters: those every call passes, then the variadic one, if any.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Signature {
    pub(crate) name: &'static str,
    pub(crate) parameters: &'static [Parameter],
    pub(crate) variadic: Option<Parameter>,
    tools: Tools,
}

const fn p(name: &'static str, ty: ParameterType, nullable: bool) -> Parameter {
    Parameter { name, ty, nullable }
}

const fn sig(
    name: &'static str,
    parameters: &'static [Parameter],
    variadic: Option<Parameter>,
    tools: Tools,
) -> Signature {
    Signature {
        name,
        parameters,
        variadic,
        tools,
    }
}

use ParameterType::{Dynamic, List, Map, Number, Set, String as Text};

/// Every described function, by name.
const SIGNATURES: &[Signature] = &[
    sig("abs", &[p("num", Number, false)], None, BOTH),
    sig("abspath", &[p("path", Text, false)], None, BOTH),
    sig("alltrue", &[p("list", List("bool"), false)], None, BOTH),
    sig("anytrue", &[p("list", List("bool"), false)], None, BOTH),
    sig("base64decode", &[p("str", Text, false)], None, BOTH),
    sig("base64encode", &[p("str", Text, false)], None, BOTH),
    sig("base64gunzip", &[p("str", Text, false)], None, OPENTOFU),
    sig("base64gzip", &[p("str", Text, false)], None, BOTH),
    sig("base64sha256", &[p("str", Text, false)], None, BOTH),
    sig("base64sha512", &[p("str", Text, false)], None, BOTH),
    sig("basename", &[p("path", Text, false)], None, BOTH),
    sig(
        "bcrypt",
        &[p("str", Text, false)],
        Some(p("cost", Number, false)),
        BOTH,
    ),
    sig("can", &[p("expression", Dynamic, false)], None, BOTH),
    sig("ceil", &[p("num", Number, false)], None, BOTH),
    sig("chomp", &[p("str", Text, false)], None, BOTH),
    sig(
        "chunklist",
        &[p("list", List("dynamic"), false), p("size", Number, false)],
        None,
        BOTH,
    ),
    sig(
        "cidrcontains",
        &[
            p("containing_prefix", Text, false),
            p("contained_ip_or_prefix", Text, false),
        ],
        None,
        OPENTOFU,
    ),
    sig(
        "cidrhost",
        &[p("prefix", Text, false), p("hostnum", Number, false)],
        None,
        BOTH,
    ),
    sig("cidrnetmask", &[p("prefix", Text, false)], None, BOTH),
    sig(
        "cidrsubnet",
        &[
            p("prefix", Text, false),
            p("newbits", Number, false),
            p("netnum", Number, false),
        ],
        None,
        BOTH,
    ),
    sig(
        "cidrsubnets",
        &[p("prefix", Text, false)],
        Some(p("newbits", Number, false)),
        BOTH,
    ),
    sig("coalesce", &[], Some(p("vals", Dynamic, true)), BOTH),
    sig("coalescelist", &[], Some(p("vals", Dynamic, true)), BOTH),
    sig("compact", &[p("list", List("string"), false)], None, BOTH),
    sig("concat", &[], Some(p("seqs", Dynamic, false)), BOTH),
    sig(
        "contains",
        &[p("list", Dynamic, false), p("value", Dynamic, false)],
        None,
        BOTH,
    ),
    sig(
        "convert",
        &[p("value", Dynamic, true), p("type", Dynamic, false)],
        None,
        TERRAFORM,
    ),
    sig("csvdecode", &[p("str", Text, false)], None, BOTH),
    sig("dirname", &[p("path", Text, false)], None, BOTH),
    sig("distinct", &[p("list", List("dynamic"), false)], None, BOTH),
    sig(
        "element",
        &[p("list", Dynamic, false), p("index", Number, false)],
        None,
        BOTH,
    ),
    sig(
        "endswith",
        &[p("str", Text, false), p("suffix", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "ephemeralasnull",
        &[p("value", Dynamic, true)],
        None,
        TERRAFORM,
    ),
    sig("file", &[p("path", Text, false)], None, BOTH),
    sig("filebase64", &[p("path", Text, false)], None, BOTH),
    sig("filebase64sha256", &[p("path", Text, false)], None, BOTH),
    sig("filebase64sha512", &[p("path", Text, false)], None, BOTH),
    sig("fileexists", &[p("path", Text, false)], None, BOTH),
    sig("filemd5", &[p("path", Text, false)], None, BOTH),
    sig(
        "fileset",
        &[p("path", Text, false), p("pattern", Text, false)],
        None,
        BOTH,
    ),
    sig("filesha1", &[p("path", Text, false)], None, BOTH),
    sig("filesha256", &[p("path", Text, false)], None, BOTH),
    sig("filesha512", &[p("path", Text, false)], None, BOTH),
    sig("flatten", &[p("list", Dynamic, false)], None, BOTH),
    sig("floor", &[p("num", Number, false)], None, BOTH),
    sig(
        "format",
        &[p("format", Text, false)],
        Some(p("args", Dynamic, true)),
        BOTH,
    ),
    sig(
        "formatdate",
        &[p("format", Text, false), p("time", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "formatlist",
        &[p("format", Text, false)],
        Some(p("args", Dynamic, true)),
        BOTH,
    ),
    sig(
        "indent",
        &[p("spaces", Number, false), p("str", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "index",
        &[p("list", Dynamic, false), p("value", Dynamic, false)],
        None,
        BOTH,
    ),
    sig("issensitive", &[p("value", Dynamic, true)], None, TERRAFORM),
    sig(
        "join",
        &[p("separator", Text, false)],
        Some(p("lists", List("string"), false)),
        BOTH,
    ),
    sig("jsondecode", &[p("str", Text, false)], None, BOTH),
    sig("jsonencode", &[p("val", Dynamic, true)], None, BOTH),
    sig("keys", &[p("inputMap", Dynamic, false)], None, BOTH),
    sig("length", &[p("value", Dynamic, false)], None, BOTH),
    sig(
        "log",
        &[p("num", Number, false), p("base", Number, false)],
        None,
        BOTH,
    ),
    sig(
        "lookup",
        &[p("inputMap", Dynamic, false), p("key", Text, false)],
        Some(p("default", Dynamic, true)),
        BOTH,
    ),
    sig("lower", &[p("str", Text, false)], None, BOTH),
    sig(
        "matchkeys",
        &[
            p("values", List("dynamic"), false),
            p("keys", List("dynamic"), false),
            p("searchset", List("dynamic"), false),
        ],
        None,
        BOTH,
    ),
    sig("max", &[], Some(p("numbers", Number, false)), BOTH),
    sig("md5", &[p("str", Text, false)], None, BOTH),
    sig("merge", &[], Some(p("maps", Dynamic, true)), BOTH),
    sig("min", &[], Some(p("numbers", Number, false)), BOTH),
    sig("nonsensitive", &[p("value", Dynamic, true)], None, BOTH),
    sig("one", &[p("list", Dynamic, false)], None, BOTH),
    sig(
        "parseint",
        &[p("number", Dynamic, false), p("base", Number, false)],
        None,
        BOTH,
    ),
    sig("pathexpand", &[p("path", Text, false)], None, BOTH),
    sig("plantimestamp", &[], None, BOTH),
    sig(
        "pow",
        &[p("num", Number, false), p("power", Number, false)],
        None,
        BOTH,
    ),
    sig("range", &[], Some(p("params", Number, false)), BOTH),
    sig(
        "regex",
        &[p("pattern", Text, false), p("string", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "regexall",
        &[p("pattern", Text, false), p("string", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "replace",
        &[
            p("str", Text, false),
            p("substr", Text, false),
            p("replace", Text, false),
        ],
        None,
        BOTH,
    ),
    sig("reverse", &[p("list", Dynamic, false)], None, BOTH),
    sig(
        "rsadecrypt",
        &[p("ciphertext", Text, false), p("privatekey", Text, false)],
        None,
        BOTH,
    ),
    sig("sensitive", &[p("value", Dynamic, true)], None, BOTH),
    sig(
        "setintersection",
        &[p("first_set", Set("dynamic"), false)],
        Some(p("other_sets", Set("dynamic"), false)),
        BOTH,
    ),
    sig("setproduct", &[], Some(p("sets", Dynamic, false)), BOTH),
    sig(
        "setsubtract",
        &[p("a", Set("dynamic"), false), p("b", Set("dynamic"), false)],
        None,
        BOTH,
    ),
    sig(
        "setunion",
        &[p("first_set", Set("dynamic"), false)],
        Some(p("other_sets", Set("dynamic"), false)),
        BOTH,
    ),
    sig("sha1", &[p("str", Text, false)], None, BOTH),
    sig("sha256", &[p("str", Text, false)], None, BOTH),
    sig("sha512", &[p("str", Text, false)], None, BOTH),
    sig("signum", &[p("num", Number, false)], None, BOTH),
    sig(
        "slice",
        &[
            p("list", Dynamic, false),
            p("start_index", Number, false),
            p("end_index", Number, false),
        ],
        None,
        BOTH,
    ),
    sig("sort", &[p("list", List("string"), false)], None, BOTH),
    sig(
        "split",
        &[p("separator", Text, false), p("str", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "startswith",
        &[p("str", Text, false), p("prefix", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "strcontains",
        &[p("str", Text, false), p("substr", Text, false)],
        None,
        BOTH,
    ),
    sig("strrev", &[p("str", Text, false)], None, BOTH),
    sig(
        "substr",
        &[
            p("str", Text, false),
            p("offset", Number, false),
            p("length", Number, false),
        ],
        None,
        BOTH,
    ),
    sig("sum", &[p("list", Dynamic, false)], None, BOTH),
    sig(
        "templatefile",
        &[p("path", Text, false), p("vars", Dynamic, false)],
        None,
        BOTH,
    ),
    sig(
        "templatestring",
        &[p("template", Text, false), p("vars", Dynamic, false)],
        None,
        TERRAFORM,
    ),
    sig(
        "textdecodebase64",
        &[p("source", Text, false), p("encoding", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "textencodebase64",
        &[p("string", Text, false), p("encoding", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "timeadd",
        &[p("timestamp", Text, false), p("duration", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "timecmp",
        &[p("timestamp_a", Text, false), p("timestamp_b", Text, false)],
        None,
        BOTH,
    ),
    sig("timestamp", &[], None, BOTH),
    sig("title", &[p("str", Text, false)], None, BOTH),
    sig("tobool", &[p("v", Dynamic, true)], None, BOTH),
    sig("tolist", &[p("v", Dynamic, true)], None, BOTH),
    sig("tomap", &[p("v", Dynamic, true)], None, BOTH),
    sig("tonumber", &[p("v", Dynamic, true)], None, BOTH),
    sig("toset", &[p("v", Dynamic, true)], None, BOTH),
    sig("tostring", &[p("v", Dynamic, true)], None, BOTH),
    sig(
        "transpose",
        &[p("values", Map("list of string"), false)],
        None,
        BOTH,
    ),
    sig(
        "trim",
        &[p("str", Text, false), p("cutset", Text, false)],
        None,
        BOTH,
    ),
    sig(
        "trimprefix",
        &[p("str", Text, false), p("prefix", Text, false)],
        None,
        BOTH,
    ),
    sig("trimspace", &[p("str", Text, false)], None, BOTH),
    sig(
        "trimsuffix",
        &[p("str", Text, false), p("suffix", Text, false)],
        None,
        BOTH,
    ),
    sig("try", &[], Some(p("expressions", Dynamic, false)), BOTH),
    sig("upper", &[p("str", Text, false)], None, BOTH),
    sig("urldecode", &[p("str", Text, false)], None, OPENTOFU),
    sig("urlencode", &[p("str", Text, false)], None, BOTH),
    sig("uuid", &[], None, BOTH),
    sig(
        "uuidv5",
        &[p("namespace", Text, false), p("name", Text, false)],
        None,
        BOTH,
    ),
    sig("values", &[p("mapping", Dynamic, false)], None, BOTH),
    sig("yamldecode", &[p("src", Text, false)], None, BOTH),
    sig("yamlencode", &[p("value", Dynamic, true)], None, BOTH),
    sig(
        "zipmap",
        &[
            p("keys", List("string"), false),
            p("values", Dynamic, false),
        ],
        None,
        BOTH,
    ),
];

/// The signature of the built-in function `name` (without a `core::` namespace) in `view`'s
/// tool, if it is described.
pub(crate) fn signature(view: View, name: &str) -> Option<&'static Signature> {
    let index = SIGNATURES.binary_search_by(|s| s.name.cmp(name)).ok()?;
    let found = &SIGNATURES[index];
    let described = match view {
        View::Terraform => found.tools.terraform,
        View::OpenTofu => found.tools.opentofu,
    };
    described.then_some(found)
}

#[cfg(test)]
mod tests {
    use super::{SIGNATURES, signature};
    use crate::knowledge::View;
    use crate::knowledge::features::{self, Place};

    #[test]
    fn sorted_by_name_for_the_binary_search() {
        assert!(SIGNATURES.windows(2).all(|w| w[0].name < w[1].name));
    }

    /// Every described function is one some release of its tool has.
    #[test]
    fn every_signature_is_a_known_function() {
        for s in SIGNATURES {
            for view in View::ALL {
                if signature(view, s.name).is_some() {
                    let known = features::acceptance(view, Place::Function, s.name);
                    assert!(known.is_some(), "{view:?} {}", s.name);
                }
            }
        }
    }
}
