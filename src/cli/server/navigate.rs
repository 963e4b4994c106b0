//! Go to definition and find references, across the files of a module directory, override
//! files included. What a reference names is looked up in the effective module of each view
//! the last check built: a variable, module call or resource goes to its declaration and to
//! each override block merged into it, a local value to the definition in effect first (an
//! override file's, when one sets it again) and then the others, and `module.NAME.OUTPUT` of a
//! call to a local module to the `output` block in the called module's files.
//!
//! References are read from each file as written (a reference in an attribute an override
//! replaced is still a use to show), with the same reference model the rules use
//! (`syntax::references`).

use std::path::{Path, PathBuf};

use lsp_types::{Location, Url};

use crate::input::overlay::Overlay;
use crate::input::read::{Read, read_and_parse};
use crate::knowledge::module_source::{self, SourceKind};
use crate::lint::helpers::declared::RESERVED_ROOTS;
use crate::module::merge::{Address, Module};
use crate::source::{FileId, SourceFile, SourceFiles, Span, Syntax};
use crate::syntax::references::ReferenceStep;
use crate::syntax::{Body, Reference, parse};

use super::position::{Encoding, LineIndex};

/// What a place in a file names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// A variable, module call or resource (managed, data or ephemeral).
    Object(Address),
    Local(String),
    /// An output of a module call: the call's address, the output's name.
    ModuleOutput(Address, String),
}

/// What [`definitions`] and [`references`] need of the server's last check of a directory.
pub(crate) struct Directory<'a> {
    pub(crate) dir: &'a Path,
    pub(crate) files: &'a SourceFiles,
    pub(crate) modules: &'a [Module],
    pub(crate) encoding: Encoding,
    /// The open buffers over the disk, and the run's scope: a called module's files are read
    /// through the one reader, as a check reads them.
    pub(crate) overlay: Overlay,
    pub(crate) max_file_bytes: u64,
}

/// The syntax a file is written in, by its name.
fn syntax_of(path: &Path) -> Syntax {
    match path.extension().is_some_and(|e| e == "json") {
        true => Syntax::Json,
        false => Syntax::Native,
    }
}

/// Every reference of a file, each with its span, in source order.
fn references_of(id: FileId, file: &SourceFile) -> Vec<Reference> {
    let Some(text) = file.whole_text() else {
        return Vec::new();
    };
    let Ok(parsed) = parse(id, syntax_of(&file.path), text).file else {
        return Vec::new();
    };
    let mut found = Vec::new();
    collect(&parsed.body, &mut found);
    found
}

fn collect(body: &Body, out: &mut Vec<Reference>) {
    for attr in &body.attributes {
        attr.expr.for_each_reference(&mut |r| out.push(r.clone()));
    }
    body.blocks.iter().for_each(|b| collect(&b.body, out));
}

/// What `reference` names, if it names a declaration of the module.
fn target_of(reference: &Reference) -> Option<Target> {
    let first = reference.attr(0)?.to_string();
    let root = reference.root.as_str();
    Some(match root {
        "var" => Target::Object(Address::Variable(first)),
        "local" => Target::Local(first),
        "module" => {
            // `module.m.out`, or `module.m[KEY].out` for a call with `count` or `for_each`.
            let output = match reference.steps.get(1) {
                Some(ReferenceStep::Attr(output)) => Some(output.as_str()),
                Some(ReferenceStep::Index(_)) => reference.attr(2),
                None => None,
            };
            match output {
                Some(output) => {
                    Target::ModuleOutput(Address::ModuleCall(first), output.to_string())
                }
                None => Target::Object(Address::ModuleCall(first)),
            }
        }
        "data" | "ephemeral" => {
            let name = reference.attr(1)?.to_string();
            Target::Object(Address::Resource(root.to_string(), first, name))
        }
        _ if RESERVED_ROOTS.contains(&root) => return None,
        _ => Target::Object(Address::Resource(
            "resource".to_string(),
            root.to_string(),
            first,
        )),
    })
}

fn contains(span: Span, file: FileId, offset: usize) -> bool {
    span.file == file && span.range().contains(&offset)
}

/// What the place at byte `offset` of `file` names: a reference there, or a declaration whose
/// header (or local value's name) it is on.
pub(crate) fn target_at(d: &Directory, file: FileId, offset: usize) -> Option<Target> {
    let source = d.files.get(file);
    let at_reference = references_of(file, source)
        .into_iter()
        .find(|r| r.span.range().contains(&offset) || r.span.range().end == offset);
    if let Some(reference) = at_reference {
        // On `module.NAME` of `module.NAME.OUTPUT`: the call (the output is further on).
        if let Some(Target::ModuleOutput(call, _)) = target_of(&reference) {
            let name = reference.attr(0).unwrap_or_default();
            let call_end = reference.span.range().start + "module.".len() + name.len();
            if offset < call_end {
                return Some(Target::Object(call));
            }
        }
        return target_of(&reference);
    }
    for module in d.modules {
        for object in &module.objects {
            let headers = std::iter::once(&object.base_header).chain(&object.overrides);
            let on_header = headers.into_iter().any(|&h| contains(h, file, offset));
            let navigable = matches!(
                object.address,
                Address::Variable(_) | Address::ModuleCall(_) | Address::Resource(..)
            );
            if on_header && navigable {
                return Some(Target::Object(object.address.clone()));
            }
        }
        for local in &module.locals {
            let spans = [local.declared, local.attribute.name_span()];
            if spans.iter().any(|&s| contains(s, file, offset)) {
                return Some(Target::Local(local.attribute.name().to_string()));
            }
        }
    }
    None
}

/// Where `target` is declared: in effect first, then the rest, each once.
pub(crate) fn definitions(d: &Directory, target: &Target) -> Vec<Location> {
    let mut spans: Vec<Span> = Vec::new();
    let mut push = |span: Span| {
        if !spans.contains(&span) {
            spans.push(span);
        }
    };
    match target {
        Target::Object(address) => {
            for object in d.modules.iter().filter_map(|m| m.object(address)) {
                push(object.base_header);
                object.overrides.iter().copied().for_each(&mut push);
            }
        }
        Target::Local(name) => {
            for local in d.modules.iter().filter_map(|m| m.local(name)) {
                push(local.attribute.name_span());
                push(local.declared);
            }
            local_definitions(d, name).into_iter().for_each(&mut push);
        }
        Target::ModuleOutput(call, output) => return output_definitions(d, call, output),
    }
    spans.into_iter().filter_map(|s| location(d, s)).collect()
}

/// Every definition of local value `name` in the directory's files (an override file may set it
/// again).
fn local_definitions(d: &Directory, name: &str) -> Vec<Span> {
    let mut found = Vec::new();
    for (id, file) in directory_files(d) {
        let Some(text) = file.whole_text() else {
            continue;
        };
        let Ok(parsed) = parse(id, syntax_of(&file.path), text).file else {
            continue;
        };
        for block in parsed.body.blocks_of("locals") {
            if let Some(attr) = block.body.attribute(name) {
                found.push(attr.name_span);
            }
        }
    }
    found
}

/// The `output` blocks named `output` of the local module that call `call` names.
fn output_definitions(d: &Directory, call: &Address, output: &str) -> Vec<Location> {
    let Some(source) = (d.modules.iter())
        .filter_map(|m| m.object(call))
        .find_map(|o| {
            o.body
                .attribute("source")?
                .expr
                .literal_string()
                .map(str::to_string)
        })
    else {
        return Vec::new();
    };
    if module_source::classify(&source) != SourceKind::Local {
        return Vec::new();
    }
    let child = crate::source::clean(&d.dir.join(&source));
    let Ok(entries) = std::fs::read_dir(&child) else {
        return Vec::new();
    };
    let mut names: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    names.sort();
    let mut found = Vec::new();
    for path in names {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if crate::knowledge::files::classify(name).is_none() {
            continue;
        }
        let read = read_and_parse(
            &path,
            FileId(0),
            syntax_of(&path),
            d.max_file_bytes,
            &d.overlay,
        );
        let Read::Parsed { text, parsed } = read else {
            continue;
        };
        let Ok(parsed) = parsed.file else {
            continue;
        };
        let file = SourceFile::new(path.clone(), text);
        let blocks = parsed.body.blocks_of("output");
        for block in blocks.filter(|b| b.label(0) == Some(output)) {
            let range = LineIndex::new(&file, d.encoding).range(block.header_span.range());
            if let Ok(uri) = Url::from_file_path(&path) {
                found.push(Location::new(uri, range));
            }
        }
    }
    found
}

/// The files of the directory itself (not of the modules it calls).
fn directory_files<'a>(d: &'a Directory) -> impl Iterator<Item = (FileId, &'a SourceFile)> + 'a {
    (d.files.iter())
        .filter(|(_, f)| f.path.parent() == Some(d.dir))
        .map(|(id, f)| (id, f.as_ref()))
}

/// Every reference to `target` in the directory's files, in file then source order, with the
/// declarations first when `declarations` is set.
pub(crate) fn references(d: &Directory, target: &Target, declarations: bool) -> Vec<Location> {
    let mut found = match declarations {
        true => definitions(d, target),
        false => Vec::new(),
    };
    for (id, _) in directory_files(d) {
        for reference in references_of(id, d.files.get(id)) {
            let Some(named) = target_of(&reference) else {
                continue;
            };
            let matches = named == *target
                || matches!((&named, target),
                    (Target::ModuleOutput(call, _), Target::Object(c)) if call == c);
            if matches {
                found.extend(location(d, reference.span));
            }
        }
    }
    found
}

fn location(d: &Directory, span: Span) -> Option<Location> {
    let file = d.files.get(span.file);
    let uri = Url::from_file_path(&file.path).ok()?;
    Some(Location::new(
        uri,
        LineIndex::new(file, d.encoding).range(span.range()),
    ))
}
