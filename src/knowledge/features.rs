//! What each release of each tool accepts, as data: one row per construct, with the release
//! line of each tool that brought it and the one that removed it (checked against the facts of
//! `tests/tool_versions.txt`, each citing the tool's changelog or source).
//! A new release that adds a construct is one new row (or one changed `Since`), and
//! [`super::releases`] gets the new line.
//!
//! Only tool-defined bodies are described: resource, data source, provider and provisioner
//! bodies also hold what the provider defines, whose schema we do not have.

use std::sync::LazyLock;

use super::View;
use super::releases::Release;

/// Where a construct is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Place {
    /// A block at the top level of a configuration file.
    TopLevel,
    /// An argument or nested block of the given tool-defined block.
    In(Body),
    /// A backend type (`backend "<type>"`).
    Backend,
    /// A built-in function (also callable as `core::<name>` where that namespace exists).
    Function,
    /// A function namespace (`core::`, `provider::`).
    FunctionNamespace,
    /// A configuration file extension.
    FileType,
}

/// A tool-defined block whose arguments and nested blocks the tools check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Body {
    Terraform,
    Variable,
    Output,
    /// A module call's meta-arguments (its other arguments are the callee's input variables).
    Module,
    /// The meta-arguments of `resource`, `data` and `ephemeral` blocks.
    Resource,
    /// A provider configuration's meta-arguments.
    Provider,
    /// `lifecycle` in a resource, data source or ephemeral resource.
    Lifecycle,
    /// `lifecycle` in a module call.
    ModuleLifecycle,
    /// `lifecycle` in a `removed` block.
    RemovedLifecycle,
    Moved,
    Import,
    Removed,
    Check,
    Action,
    Language,
}

impl Body {
    /// The block type as written, for messages.
    pub(crate) fn block_type(self) -> &'static str {
        match self {
            Body::Terraform => "terraform",
            Body::Variable => "variable",
            Body::Output => "output",
            Body::Module => "module",
            Body::Resource => "resource",
            Body::Provider => "provider",
            Body::Lifecycle | Body::ModuleLifecycle | Body::RemovedLifecycle => "lifecycle",
            Body::Moved => "moved",
            Body::Import => "import",
            Body::Removed => "removed",
            Body::Check => "check",
            Body::Action => "action",
            Body::Language => "language",
        }
    }
}

/// The releases of one tool that have a construct: from `since` (inclusive) to `until`
/// (exclusive, the line that removed it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Availability {
    Never,
    Since(Release),
    Between(Release, Release),
}

impl Availability {
    pub(crate) fn in_release(self, release: Release) -> bool {
        match self {
            Availability::Never => false,
            Availability::Since(since) => release >= since,
            Availability::Between(since, until) => release >= since && release < until,
        }
    }

    /// The release line that brought the construct.
    pub(crate) fn since(self) -> Option<Release> {
        match self {
            Availability::Never => None,
            Availability::Since(since) | Availability::Between(since, _) => Some(since),
        }
    }

    /// The release line that removed the construct.
    pub(crate) fn until(self) -> Option<Release> {
        match self {
            Availability::Between(_, until) => Some(until),
            _ => None,
        }
    }
}

/// One construct and when each tool has it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Feature {
    pub(crate) place: Place,
    pub(crate) name: &'static str,
    pub(crate) terraform: Availability,
    pub(crate) opentofu: Availability,
}

impl Feature {
    pub(crate) fn availability(&self, view: View) -> Availability {
        match view {
            View::Terraform => self.terraform,
            View::OpenTofu => self.opentofu,
        }
    }
}

use Availability::{Between, Never, Since};
use Body as B;
use Place::{Backend, FileType, Function, FunctionNamespace, In, TopLevel};

const fn v(minor: u16) -> Release {
    Release::new(1, minor)
}

/// In both tools from their first known release (Terraform ≤ 1.0, OpenTofu 1.6).
const OLD: (Availability, Availability) = (Since(v(0)), Since(v(6)));

const fn row(place: Place, name: &'static str, tools: (Availability, Availability)) -> Feature {
    Feature {
        place,
        name,
        terraform: tools.0,
        opentofu: tools.1,
    }
}

/// Terraform since `terraform`, OpenTofu since `opentofu` (either `None`: never).
const fn since(terraform: Option<u16>, opentofu: Option<u16>) -> (Availability, Availability) {
    (tool_since(terraform), tool_since(opentofu))
}

const fn tool_since(minor: Option<u16>) -> Availability {
    match minor {
        Some(m) => Since(v(m)),
        None => Never,
    }
}

/// Every construct, grouped by where it is written.
pub(crate) const FEATURES: &[Feature] = &[
    // Top-level blocks.
    row(TopLevel, "terraform", OLD),
    row(TopLevel, "provider", OLD),
    row(TopLevel, "variable", OLD),
    row(TopLevel, "locals", OLD),
    row(TopLevel, "output", OLD),
    row(TopLevel, "module", OLD),
    row(TopLevel, "resource", OLD),
    row(TopLevel, "data", OLD),
    row(TopLevel, "moved", since(Some(1), Some(6))),
    row(TopLevel, "import", since(Some(5), Some(6))),
    row(TopLevel, "check", since(Some(5), Some(6))),
    row(TopLevel, "removed", since(Some(7), Some(7))),
    row(TopLevel, "ephemeral", since(Some(10), Some(11))),
    // Terraform 1.13 stable builds ignore `action` silently (`IGNORED`); 1.14 accepts it.
    row(TopLevel, "action", since(Some(14), None)),
    row(TopLevel, "language", since(None, Some(12))),
    // `terraform {}` settings.
    row(In(B::Terraform), "required_version", OLD),
    row(In(B::Terraform), "required_providers", OLD),
    row(In(B::Terraform), "backend", OLD),
    row(In(B::Terraform), "provider_meta", OLD),
    row(In(B::Terraform), "experiments", OLD),
    row(In(B::Terraform), "language", OLD),
    row(In(B::Terraform), "cloud", since(Some(1), Some(6))),
    // Experimental builds only in Terraform: stable builds refuse it.
    row(In(B::Terraform), "state_store", since(None, None)),
    row(In(B::Terraform), "encryption", since(None, Some(7))),
    // Meta-arguments and nested blocks.
    row(In(B::Resource), "count", OLD),
    row(In(B::Resource), "for_each", OLD),
    row(In(B::Resource), "provider", OLD),
    row(In(B::Resource), "depends_on", OLD),
    row(In(B::Resource), "lifecycle", OLD),
    row(In(B::Resource), "connection", OLD),
    row(In(B::Resource), "provisioner", OLD),
    row(In(B::Module), "source", OLD),
    row(In(B::Module), "version", OLD),
    row(In(B::Module), "count", OLD),
    row(In(B::Module), "for_each", OLD),
    row(In(B::Module), "depends_on", OLD),
    row(In(B::Module), "providers", OLD),
    row(
        In(B::Module),
        "ignore_nested_deprecations",
        since(Some(15), None),
    ),
    row(In(B::Module), "lifecycle", since(None, Some(11))),
    row(In(B::ModuleLifecycle), "enabled", since(None, Some(11))),
    row(In(B::Lifecycle), "create_before_destroy", OLD),
    row(In(B::Lifecycle), "prevent_destroy", OLD),
    row(In(B::Lifecycle), "ignore_changes", OLD),
    row(
        In(B::Lifecycle),
        "replace_triggered_by",
        since(Some(2), Some(6)),
    ),
    row(In(B::Lifecycle), "precondition", since(Some(2), Some(6))),
    row(In(B::Lifecycle), "postcondition", since(Some(2), Some(6))),
    row(In(B::Lifecycle), "destroy", since(Some(16), Some(12))),
    row(In(B::Lifecycle), "enabled", since(None, Some(11))),
    row(In(B::Lifecycle), "action_trigger", since(Some(14), None)),
    row(In(B::Provider), "alias", OLD),
    row(In(B::Provider), "version", OLD),
    row(In(B::Provider), "for_each", since(None, Some(9))),
    row(In(B::Moved), "from", since(Some(1), Some(6))),
    row(In(B::Moved), "to", since(Some(1), Some(6))),
    row(In(B::Import), "to", since(Some(5), Some(6))),
    row(In(B::Import), "id", since(Some(5), Some(6))),
    row(In(B::Import), "provider", since(Some(5), Some(6))),
    row(In(B::Import), "for_each", since(Some(7), Some(7))),
    row(In(B::Import), "identity", since(Some(12), Some(12))),
    row(In(B::Removed), "from", since(Some(7), Some(7))),
    row(In(B::Removed), "lifecycle", since(Some(7), Some(10))),
    row(In(B::Removed), "provisioner", since(Some(9), Some(10))),
    row(In(B::Removed), "connection", since(Some(9), None)),
    row(In(B::RemovedLifecycle), "destroy", since(Some(7), Some(10))),
    row(In(B::Check), "data", since(Some(5), Some(6))),
    row(In(B::Check), "assert", since(Some(5), Some(6))),
    row(In(B::Action), "count", since(Some(14), None)),
    row(In(B::Action), "for_each", since(Some(14), None)),
    row(In(B::Action), "provider", since(Some(14), None)),
    row(In(B::Action), "config", since(Some(14), None)),
    row(In(B::Language), "edition", since(None, Some(12))),
    row(In(B::Language), "experiments", since(None, Some(12))),
    row(In(B::Language), "compatible_with", since(None, Some(12))),
    // Variables and outputs.
    row(In(B::Variable), "description", OLD),
    row(In(B::Variable), "default", OLD),
    row(In(B::Variable), "type", OLD),
    row(In(B::Variable), "sensitive", OLD),
    row(In(B::Variable), "validation", OLD),
    row(In(B::Variable), "nullable", since(Some(1), Some(6))),
    row(In(B::Variable), "ephemeral", since(Some(10), Some(11))),
    row(In(B::Variable), "deprecated", since(Some(15), Some(10))),
    row(In(B::Variable), "const", since(Some(15), Some(12))),
    row(In(B::Output), "description", OLD),
    row(In(B::Output), "value", OLD),
    row(In(B::Output), "depends_on", OLD),
    row(In(B::Output), "sensitive", OLD),
    row(In(B::Output), "precondition", since(Some(2), Some(6))),
    row(In(B::Output), "ephemeral", since(Some(10), Some(11))),
    row(In(B::Output), "deprecated", since(Some(15), Some(10))),
    row(In(B::Output), "type", since(Some(15), None)),
    // Function namespaces: `core::NAME` and `provider::NAME::FUNCTION`.
    row(FunctionNamespace, "core", since(Some(8), Some(7))),
    row(FunctionNamespace, "provider", since(Some(8), Some(7))),
    // Functions that came or went after the first known release.
    row(Function, "defaults", (Between(v(0), v(3)), Never)),
    // `type` exists only in the console of either tool: a module that calls it gets "Call to
    // unknown function" (Terraform and OpenTofu `internal/lang/functions.go`, `Functions`:
    // `if s.ConsoleMode { ... "type" ... }`; Terraform 1.6 to 1.15 say so when they validate).
    row(Function, "type", (Never, Never)),
    row(Function, "startswith", since(Some(3), Some(6))),
    row(Function, "endswith", since(Some(3), Some(6))),
    row(Function, "timecmp", since(Some(3), Some(6))),
    row(Function, "plantimestamp", since(Some(5), Some(6))),
    row(Function, "strcontains", since(Some(5), Some(6))),
    row(Function, "issensitive", since(Some(8), Some(7))),
    row(Function, "templatestring", since(Some(9), Some(7))),
    row(Function, "base64gunzip", since(None, Some(7))),
    row(Function, "cidrcontains", since(None, Some(7))),
    row(Function, "urldecode", since(None, Some(7))),
    row(Function, "ephemeralasnull", since(Some(10), Some(11))),
    row(Function, "convert", since(Some(15), Some(13))),
    row(Function, "assumeequal", since(None, Some(13))),
    row(Function, "assumelistlength", since(None, Some(13))),
    row(Function, "assumelistlengthmax", since(None, Some(13))),
    row(Function, "assumelistlengthmin", since(None, Some(13))),
    row(Function, "assumemaplength", since(None, Some(13))),
    row(Function, "assumemaplengthmax", since(None, Some(13))),
    row(Function, "assumemaplengthmin", since(None, Some(13))),
    row(Function, "assumenotnull", since(None, Some(13))),
    row(Function, "assumesetlength", since(None, Some(13))),
    row(Function, "assumesetlengthmax", since(None, Some(13))),
    row(Function, "assumesetlengthmin", since(None, Some(13))),
    row(Function, "assumestringprefix", since(None, Some(13))),
    // Backends.
    row(Backend, "local", OLD),
    row(Backend, "remote", OLD),
    row(Backend, "azurerm", OLD),
    row(Backend, "consul", OLD),
    row(Backend, "cos", OLD),
    row(Backend, "gcs", OLD),
    row(Backend, "http", OLD),
    row(Backend, "inmem", OLD),
    row(Backend, "kubernetes", OLD),
    row(Backend, "oss", OLD),
    row(Backend, "pg", OLD),
    row(Backend, "s3", OLD),
    row(Backend, "oci", since(Some(12), None)),
    row(Backend, "artifactory", REMOVED_IN_1_3),
    row(Backend, "etcd", REMOVED_IN_1_3),
    row(Backend, "etcdv3", REMOVED_IN_1_3),
    row(Backend, "manta", REMOVED_IN_1_3),
    row(Backend, "swift", REMOVED_IN_1_3),
    row(Backend, "azure", REMOVED_IN_1_3),
    // File types.
    row(FileType, ".tf", OLD),
    row(FileType, ".tf.json", OLD),
    row(FileType, ".tftest.hcl", since(Some(6), Some(6))),
    row(FileType, ".tftest.json", since(Some(6), Some(6))),
    row(FileType, ".tfmock.hcl", since(Some(7), None)),
    row(FileType, ".tfmock.json", since(Some(7), None)),
    row(FileType, ".tofu", since(None, Some(8))),
    row(FileType, ".tofu.json", since(None, Some(8))),
    row(FileType, ".tofutest.hcl", since(None, Some(8))),
    row(FileType, ".tofutest.json", since(None, Some(8))),
    row(FileType, ".tfquery.hcl", since(Some(14), None)),
    row(FileType, ".tfquery.json", since(Some(14), None)),
];

/// Terraform removed these backends in 1.3; OpenTofu never had them (it lists them as removed).
const REMOVED_IN_1_3: (Availability, Availability) = (Between(v(0), v(3)), Never);

/// The built-in functions both tools have had since their first known release (Terraform 1.0,
/// OpenTofu 1.6) and still have; the others are rows of [`FEATURES`].
pub(crate) const BASE_FUNCTIONS: &[&str] = &[
    "abs",
    "abspath",
    "alltrue",
    "anytrue",
    "base64decode",
    "base64encode",
    "base64gzip",
    "base64sha256",
    "base64sha512",
    "basename",
    "bcrypt",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "dirname",
    "distinct",
    "element",
    "file",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "fileexists",
    "filemd5",
    "fileset",
    "filesha1",
    "filesha256",
    "filesha512",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    // `list` and `map` are stubs that always fail ("... is no longer available"), but they are
    // names the tools know, so a call is not "Call to unknown function".
    "list",
    "log",
    "lookup",
    "lower",
    "map",
    "matchkeys",
    "max",
    "md5",
    "merge",
    "min",
    "nonsensitive",
    "one",
    "parseint",
    "pathexpand",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "rsadecrypt",
    "sensitive",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "strrev",
    "substr",
    "sum",
    "templatefile",
    "textdecodebase64",
    "textencodebase64",
    "timeadd",
    "timestamp",
    "title",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
    "transpose",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "upper",
    "urlencode",
    "uuid",
    "uuidv5",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
];

/// Constructs a release loads and silently ignores, with no diagnostic: Terraform 1.13 has them in
/// its schema but its stable builds decode them only with experiments enabled (hashicorp/terraform
/// v1.13.0 `internal/configs/parser_config.go`, `case "action"`). The rows above count these
/// releases as not having them.
const IGNORED: &[(View, Release, Place, &str)] = &[
    (View::Terraform, Release::new(1, 13), TopLevel, "action"),
    (
        View::Terraform,
        Release::new(1, 13),
        In(B::Lifecycle),
        "action_trigger",
    ),
];

/// Whether some release of `view`'s tool loads the construct and silently ignores it: asked
/// first, so that the releases are not looked at one by one for every construct of a module.
pub(crate) fn ever_ignored(view: View, place: Place, name: &str) -> bool {
    IGNORED
        .iter()
        .any(|&(v, _, p, n)| v == view && p == place && n == name)
}

/// Whether `release` of `view`'s tool loads the construct and silently ignores it.
pub(crate) fn ignores(view: View, release: Release, place: Place, name: &str) -> bool {
    IGNORED
        .iter()
        .any(|&(v, r, p, n)| v == view && r == release && p == place && n == name)
}

/// Constructs that only experimental builds accept, from the release line given on (`state_store`,
/// and `action` in 1.13: hashicorp/terraform `internal/configs/parser_config.go` decodes them only
/// under `allowExperiments`): Terraform allows experiments in its alpha releases and development
/// snapshots only (`experiments.go` at the top of its tree: "alpha releases and development
/// snapshots, but _not_ for betas, release candidates, or final releases"). The rows above describe
/// the other builds.
const EXPERIMENTAL: &[(View, Release, Place, &str)] = &[
    (View::Terraform, Release::new(1, 13), TopLevel, "action"),
    (
        View::Terraform,
        Release::new(1, 13),
        In(B::Lifecycle),
        "action_trigger",
    ),
    (
        View::Terraform,
        Release::new(1, 14),
        In(B::Terraform),
        "state_store",
    ),
];

/// Whether experimental builds of `release` of `view`'s tool accept the construct.
pub(crate) fn experimental(view: View, release: Release, place: Place, name: &str) -> bool {
    EXPERIMENTAL
        .iter()
        .any(|&(v, since, p, n)| v == view && release >= since && p == place && n == name)
}

/// The rows by place and name (the first row of a construct, as a scan of the table finds it),
/// and the base functions. Every construct of every file is looked up once per targeted release,
/// so a look-up is a hash rather than a scan of the whole table. The keys are the tables' own
/// names, so a fast hasher is safe.
struct Index {
    rows: foldhash::HashMap<(Place, &'static str), &'static Feature>,
    base_functions: foldhash::HashSet<&'static str>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut rows = foldhash::HashMap::default();
    for feature in FEATURES {
        rows.entry((feature.place, feature.name)).or_insert(feature);
    }
    let base_functions = BASE_FUNCTIONS.iter().copied().collect();
    Index {
        rows,
        base_functions,
    }
});

/// Whether the construct is described and some known release of either tool lacks it: what a
/// module's constraints must be weighed against.
pub(crate) fn is_dated(place: Place, name: &str) -> bool {
    find(place, name).is_some_and(|f| (f.terraform, f.opentofu) != OLD)
}

/// The row of a construct, if it is described.
pub(crate) fn find(place: Place, name: &str) -> Option<&'static Feature> {
    INDEX.rows.get(&(place, name)).copied()
}

/// Whether `release` of `view`'s tool has the construct (`None`: not described here).
pub(crate) fn accepts(view: View, release: Release, place: Place, name: &str) -> Option<bool> {
    acceptance(view, place, name).map(|accepted| accepted.in_release(release))
}

/// The releases of `view`'s tool that have the construct (`None`: not described here), looked
/// up once for any number of releases.
pub(crate) fn acceptance(view: View, place: Place, name: &str) -> Option<Acceptance> {
    if place == Function && INDEX.base_functions.contains(name) {
        return Some(Acceptance::Always);
    }
    find(place, name).map(|f| Acceptance::In(f.availability(view)))
}

/// Which releases have a construct: every one (a base function) or those of its row.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Acceptance {
    Always,
    In(Availability),
}

impl Acceptance {
    pub(crate) fn in_release(self, release: Release) -> bool {
        match self {
            Acceptance::Always => true,
            Acceptance::In(availability) => availability.in_release(release),
        }
    }
}

/// The names `release` of `view`'s tool accepts at `place`, in table order.
pub(crate) fn names(view: View, release: Release, place: Place) -> Vec<&'static str> {
    let base = if place == Function {
        BASE_FUNCTIONS
    } else {
        &[]
    };
    let rows = FEATURES
        .iter()
        .filter(|f| f.place == place && f.availability(view).in_release(release))
        .map(|f| f.name);
    base.iter().copied().chain(rows).collect()
}

/// The message a tool gives for a backend it removed (`RemovedBackends` in
/// `internal/backend/init/init.go` of hashicorp/terraform and opentofu/opentofu).
pub(crate) fn removed_backend_message(view: View, name: &str) -> String {
    if name == "azure" {
        return "The \"azure\" backend name has been removed, please use \"azurerm\".".into();
    }
    format!(
        "The \"{name}\" backend is not supported in {} v1.3 or later.",
        view.tool_name()
    )
}

/// Whether a backend is one the tool lists as removed (rather than never had).
pub(crate) fn is_removed_backend(name: &str) -> bool {
    find(Backend, name).is_some_and(|f| f.terraform.until().is_some())
}

#[cfg(test)]
mod judged;
#[cfg(test)]
mod tests;
