//! The interface of the modules Terragrunt units deploy from a local `terraform { source }`: the
//! variables of each module directory's effective module (Terraform's view, override files
//! merged), read once per directory, for the rules that compare a unit's `inputs` with them.
//! A module directory that cannot be read completely (outside the checked paths, a file that
//! does not parse) has no interface: nothing is judged against it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use foldhash::HashMap;

use crate::input::overlay::Overlay;
use crate::knowledge::View;
use crate::terragrunt::Tree;
use crate::terragrunt::probe::Probe;
use crate::types::{Type, parse_type};

use super::RuleSettings;
use super::directory::{Options, ViewSelection, check_directory};

/// One variable of a module.
#[derive(Debug, Clone)]
pub(crate) struct ModuleVariable {
    /// No `default`: the tools ask for a value.
    pub(crate) required: bool,
    /// The type constraint, when it is written and valid.
    pub(crate) ty: Option<Type>,
}

/// What a unit's inputs are compared with.
#[derive(Debug)]
pub(crate) struct ModuleInterface {
    pub(crate) dir: PathBuf,
    pub(crate) variables: BTreeMap<String, ModuleVariable>,
    /// The directory has `terraform.tfvars` or `*.auto.tfvars` files, which Terraform reads in
    /// the copy Terragrunt runs it in: they may set any variable.
    pub(crate) has_tfvars: bool,
}

/// Per unit node: the interface of the module it deploys.
#[derive(Debug, Default)]
pub(crate) struct UnitModules {
    pub(crate) by_unit: HashMap<usize, Arc<ModuleInterface>>,
}

/// Reads the modules the units of `tree` deploy from local sources, each directory once, with
/// the files of `overlay` and its scope.
pub(crate) fn load_unit_modules(
    tree: &Tree,
    settings: &RuleSettings,
    max_file_bytes: u64,
    overlay: &Overlay,
) -> UnitModules {
    let probe = Probe::default();
    let mut by_dir: HashMap<PathBuf, Option<Arc<ModuleInterface>>> = HashMap::default();
    let mut out = UnitModules::default();
    for &unit in tree.unit_nodes() {
        let Some(dir) = tree.local_source_dir(unit, &probe) else {
            continue;
        };
        let interface = by_dir
            .entry(dir.clone())
            .or_insert_with(|| read_interface(&dir, settings, max_file_bytes, overlay));
        if let Some(interface) = interface {
            out.by_unit.insert(unit, Arc::clone(interface));
        }
    }
    out
}

fn read_interface(
    dir: &Path,
    settings: &RuleSettings,
    max_file_bytes: u64,
    overlay: &Overlay,
) -> Option<Arc<ModuleInterface>> {
    if !dir.is_dir() {
        return None;
    }
    // The module's own findings are not this run's to report: no rule runs on it.
    let mut quiet = RuleSettings::defaults(settings.registry());
    quiet.only(&[]).ok()?;
    let mut options = Options::new(ViewSelection::only(View::Terraform), quiet);
    options.max_file_bytes = max_file_bytes;
    options.overlay = overlay.clone();
    let result = check_directory(dir, &options);
    let module = result.modules.first()?;
    let variables = (module.objects.iter())
        .filter(|object| object.kind() == "variable")
        .filter_map(|object| {
            let name = object.labels.first()?.value.clone();
            let required = object.body.attribute("default").is_none();
            let ty = (object.body.attribute("type")).and_then(|t| parse_type(&t.expr).ok());
            Some((name, ModuleVariable { required, ty }))
        })
        .collect();
    Some(Arc::new(ModuleInterface {
        dir: dir.to_path_buf(),
        variables,
        has_tfvars: has_tfvars(dir),
    }))
}

/// Whether `dir` has a file Terraform reads variable values from by itself.
fn has_tfvars(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return true;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        name == "terraform.tfvars"
            || name == "terraform.tfvars.json"
            || name.ends_with(".auto.tfvars")
            || name.ends_with(".auto.tfvars.json")
    })
}
