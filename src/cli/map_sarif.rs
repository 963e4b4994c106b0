//! `map-sarif --from DIR FILE.sarif`: another tool's SARIF report on the effective modules
//! that `merged --out DIR` wrote, with each location in one of them moved to the base or
//! override file, line and column that the source map says its text comes from.
//!
//! A location's `artifactLocation.uri` names a merged file when, resolved as SARIF says
//! (against its `uriBaseId`'s URI in `originalUriBaseIds` when that is a `file:` URI, else as
//! written: absolute, or relative to DIR, or to the working directory, or `/path` below DIR),
//! it is one of the files the source map lists. The rewritten `uri` is the source file's path
//! as `merged --out` showed it (relative to the directory it ran in, or absolute), without
//! `uriBaseId` or `index`. Regions are mapped by their lines and columns; a region that gives only offsets,
//! or a line no segment covers, is left as it was and counted. Fixes are left alone: their
//! edits are to the merged file.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::merged_out::{SOURCE_MAP, slash_path};
use super::{EXIT_CLEAN, EXIT_ERROR, usage_error};
use crate::diagnostic::escape;
use crate::module::source_map::{Segment, SourcePoint, last_line, locate, segment_from_json};

/// What `map-sarif` was asked for.
pub(crate) struct MapSarif<'a> {
    pub(crate) from: &'a Path,
    pub(crate) sarif: &'a Path,
    pub(crate) output: Option<&'a Path>,
}

/// How the locations fared.
#[derive(Debug, Default)]
struct Counts {
    mapped: usize,
    /// In a merged file, on nothing the source map covers.
    unmapped: usize,
    /// Not in a merged file.
    elsewhere: usize,
}

/// The source map, read back: each merged file's segments, by its path below DIR.
struct SourceMap {
    dir: PathBuf,
    files: HashMap<String, Vec<Segment>>,
}

pub(crate) fn run(request: &MapSarif) -> i32 {
    let map = match read_source_map(request.from) {
        Ok(map) => map,
        Err(message) => return usage_error(&message),
    };
    let shown = escape::text(&request.sarif.to_string_lossy()).into_owned();
    let text = match fs::read_to_string(request.sarif) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: cannot read {shown}: {error}");
            return EXIT_ERROR;
        }
    };
    let mut sarif: Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(error) => return usage_error(&format!("{shown} is not JSON: {error}")),
    };
    let mut counts = Counts::default();
    for run in sarif["runs"].as_array_mut().into_iter().flatten() {
        let bases = Bases {
            named: base_uris(run),
            artifacts: artifact_uris(run),
        };
        for result in run["results"].as_array_mut().into_iter().flatten() {
            map_locations(result, &map, &bases, &mut counts);
        }
    }
    let mut out = serde_json::to_string_pretty(&sarif).unwrap_or_default();
    out.push('\n');
    let written = match request.output {
        Some(path) => fs::write(path, out.as_bytes()).map_err(|e| (path.to_path_buf(), e)),
        None => match super::print_or_broken_pipe(&out) {
            EXIT_CLEAN => Ok(()),
            status => return status,
        },
    };
    if let Err((path, error)) = written {
        eprintln!(
            "error: cannot write {}: {error}",
            escape::text(&path.to_string_lossy())
        );
        return EXIT_ERROR;
    }
    eprintln!(
        "map-sarif: {} location{} mapped; {} in merged files could not be mapped and {} point \
         elsewhere, left as they were",
        counts.mapped,
        if counts.mapped == 1 { "" } else { "s" },
        counts.unmapped,
        counts.elsewhere
    );
    EXIT_CLEAN
}

fn read_source_map(dir: &Path) -> Result<SourceMap, String> {
    let path = dir.join(SOURCE_MAP);
    let shown = escape::text(&path.to_string_lossy()).into_owned();
    let text = fs::read_to_string(&path).map_err(|e| {
        format!("cannot read {shown} ({e}): give the directory `merged --out` wrote")
    })?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{shown} is not JSON: {e}"))?;
    if value["version"] != 1 {
        return Err(format!("{shown} is not a version 1 source map"));
    }
    let mut files = HashMap::new();
    for file in value["files"].as_array().into_iter().flatten() {
        let Some(path) = file["path"].as_str() else {
            continue;
        };
        let segments = file["segments"].as_array().into_iter().flatten();
        let segments = segments.filter_map(segment_from_json).collect();
        files.insert(path.to_string(), segments);
    }
    let dir = fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(SourceMap { dir, files })
}

/// What a run says about the URIs of its locations.
struct Bases {
    /// The `file:` URIs of its `originalUriBaseIds`, by name.
    named: HashMap<String, PathBuf>,
    /// Its `artifacts`' `uri` and `uriBaseId`, by index: a location may name its file by the
    /// index alone.
    artifacts: Vec<(Option<String>, Option<String>)>,
}

fn artifact_uris(run: &Value) -> Vec<(Option<String>, Option<String>)> {
    let artifacts = run["artifacts"].as_array().into_iter().flatten();
    artifacts
        .map(|a| {
            let location = &a["location"];
            let text = |key: &str| location[key].as_str().map(str::to_string);
            (text("uri"), text("uriBaseId"))
        })
        .collect()
}

/// The `file:` URIs of a run's `originalUriBaseIds`, by name.
fn base_uris(run: &Value) -> HashMap<String, PathBuf> {
    let bases = run["originalUriBaseIds"].as_object().into_iter().flatten();
    bases
        .filter_map(|(name, base)| Some((name.clone(), file_uri_path(base["uri"].as_str()?)?)))
        .collect()
}

/// Every location of a result (its locations, related locations, code flows, stacks...),
/// but not its fixes.
fn map_locations(value: &mut Value, map: &SourceMap, bases: &Bases, counts: &mut Counts) {
    match value {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match key.as_str() {
                    "fixes" => {}
                    "physicalLocation" => {
                        if let Value::Object(physical) = value {
                            map_physical(physical, map, bases, counts);
                        }
                    }
                    _ => map_locations(value, map, bases, counts),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                map_locations(item, map, bases, counts);
            }
        }
        _ => {}
    }
}

fn map_physical(
    physical: &mut Map<String, Value>,
    map: &SourceMap,
    bases: &Bases,
    counts: &mut Counts,
) {
    let artifact = &physical.get("artifactLocation");
    let by_index = (artifact.and_then(|a| a["index"].as_u64()))
        .and_then(|i| bases.artifacts.get(usize::try_from(i).ok()?));
    let text = |key: &str| artifact.and_then(|a| a[key].as_str());
    let uri = text("uri").or_else(|| by_index.and_then(|(uri, _)| uri.as_deref()));
    let base = (text("uriBaseId")).or_else(|| by_index.and_then(|(_, base)| base.as_deref()));
    let located = uri.and_then(|uri| merged_file(uri, base, map, &bases.named));
    let Some(segments) = located else {
        counts.elsewhere += 1;
        return;
    };
    let Some(region) = physical.get("region").and_then(|r| map_region(r, segments)) else {
        counts.unmapped += 1;
        return;
    };
    let file = region.file.to_string();
    physical.insert("region".into(), region.value);
    // A context region is mapped too when it can be, and dropped when it cannot: it would
    // describe the merged file.
    match (physical.get("contextRegion")).and_then(|r| map_region(r, segments)) {
        Some(context) if context.file == file => {
            physical.insert("contextRegion".into(), context.value);
        }
        _ => {
            physical.remove("contextRegion");
        }
    }
    let mut location = Map::new();
    location.insert("uri".into(), Value::String(path_uri(&file)));
    physical.insert("artifactLocation".into(), Value::Object(location));
    counts.mapped += 1;
}

/// The segments of the merged file a URI names, if it is one of the source map's.
fn merged_file<'a>(
    uri: &str,
    base: Option<&str>,
    map: &'a SourceMap,
    bases: &HashMap<String, PathBuf>,
) -> Option<&'a [Segment]> {
    let candidates: Vec<PathBuf> = if let Some(path) = file_uri_path(uri) {
        vec![path]
    } else if uri.contains(':') && !uri.starts_with('/') {
        // Another scheme (`https:`...): not a file here.
        return None;
    } else {
        let path = PathBuf::from(percent_decode(uri)?);
        match base.and_then(|b| bases.get(b)) {
            Some(base) => vec![base.join(path)],
            // Some scanners (checkov) write a path below the scanned directory with a leading
            // `/`: when no such absolute file is one of DIR's, it is read below DIR.
            None if path.is_absolute() => {
                let below = path.strip_prefix("/").map(|p| map.dir.join(p)).ok();
                std::iter::once(path).chain(below).collect()
            }
            None => vec![map.dir.join(&path), path],
        }
    };
    candidates.iter().find_map(|path| {
        let path = fs::canonicalize(path).ok()?;
        let relative = slash_path(path.strip_prefix(&map.dir).ok()?);
        map.files.get(&relative).map(Vec::as_slice)
    })
}

/// A region mapped to its source file.
struct MappedRegion<'a> {
    file: &'a str,
    value: Value,
}

/// The region (by its lines and columns) in the source: it starts where its first line that a
/// segment covers comes from, and ends at the last of its lines that comes from the same
/// file. Columns are kept where they map exactly. Offsets are dropped: they were the merged
/// file's.
fn map_region<'a>(region: &Value, segments: &'a [Segment]) -> Option<MappedRegion<'a>> {
    let number = |key: &str| region[key].as_u64().and_then(|n| usize::try_from(n).ok());
    let start_line = number("startLine").filter(|&l| l > 0)?;
    let start_column = number("startColumn");
    let end_line = number("endLine").filter(|&l| l >= start_line);
    // Lines past the last one a segment covers map to nothing: a region's claimed end, however
    // far, is searched only up to there.
    let last_line = end_line.unwrap_or(start_line).min(last_line(segments));
    let (start, exact_start) = (start_line..=last_line).find_map(|line| {
        let exact = line == start_line;
        let column = if exact { start_column.unwrap_or(1) } else { 1 };
        locate(segments, line, column).map(|p| (p, exact))
    })?;
    let same_file = |p: &SourcePoint| p.file == start.file && p.line >= start.line;
    let end = end_line.and_then(|end_line| {
        let exact = locate(segments, end_line, number("endColumn").unwrap_or(1))
            .filter(same_file)
            .map(|p| (p, true));
        exact.or_else(|| {
            (start_line..=last_line).rev().find_map(|line| {
                locate(segments, line, 1)
                    .filter(same_file)
                    .map(|p| (p, false))
            })
        })
    });
    let mut mapped = region.as_object().cloned().unwrap_or_default();
    for key in [
        "charOffset",
        "charLength",
        "byteOffset",
        "byteLength",
        "endColumn",
    ] {
        mapped.remove(key);
    }
    mapped.insert("startLine".into(), start.line.into());
    match (start_column, exact_start) {
        (Some(_), true) => {
            mapped.insert("startColumn".into(), start.column.into());
        }
        _ => {
            mapped.remove("startColumn");
        }
    }
    match end {
        Some((end, exact)) => {
            mapped.insert("endLine".into(), end.line.max(start.line).into());
            if exact && region.get("endColumn").is_some() {
                mapped.insert("endColumn".into(), end.column.into());
            }
        }
        None => {
            mapped.remove("endLine");
        }
    }
    Some(MappedRegion {
        file: start.file,
        value: Value::Object(mapped),
    })
}

/// The path of a `file:` URI (`file:///abs/path` or `file://localhost/abs/path`).
fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    rest.starts_with('/')
        .then(|| percent_decode(rest).map(PathBuf::from))
        .flatten()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A source file's path as a SARIF URI: relative as it is, an absolute path as a `file:`
/// URI, with what a URI cannot hold percent-encoded (RFC 3986).
fn path_uri(path: &str) -> String {
    let mut out = String::new();
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char);
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_claiming_to_end_far_away_is_searched_up_to_the_last_mapped_line() {
        let segments = [Segment {
            line: 3,
            column: 1,
            lines: 1,
            file: "main.tf".into(),
            source_line: 7,
            source_column: 1,
            is_override: false,
        }];
        let far = serde_json::json!({ "startLine": 1, "endLine": u64::MAX, "endColumn": u64::MAX });
        let mapped = map_region(&far, &segments).expect("mapped");
        assert_eq!(mapped.file, "main.tf");
        assert_eq!(
            mapped.value,
            serde_json::json!({ "startLine": 7, "endLine": 7 })
        );
        let past = serde_json::json!({ "startLine": 4, "endLine": u64::MAX });
        assert!(map_region(&past, &segments).is_none());
    }

    #[test]
    fn uris_round_trip_through_paths() {
        assert_eq!(path_uri("mod a/main.tf"), "mod%20a/main.tf");
        assert_eq!(path_uri("/tmp/x.tf"), "file:///tmp/x.tf");
        assert_eq!(
            file_uri_path("file:///tmp/mod%20a/x.tf"),
            Some(PathBuf::from("/tmp/mod a/x.tf"))
        );
        assert_eq!(
            file_uri_path("file://localhost/x"),
            Some(PathBuf::from("/x"))
        );
        assert_eq!(file_uri_path("x.tf"), None);
        assert_eq!(percent_decode("%zz"), None);
    }
}
