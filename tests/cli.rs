//! End-to-end tests of the binary: exit codes, arguments, bad input, rendered output.

use std::path::Path;
use std::process::{Command, Output};

fn tflint_merge(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run tflint-merge")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn write(root: &Path, files: &[(&str, &[u8])]) {
    for (name, content) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }
}

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
}

#[test]
fn clean_module_exits_zero() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[("m/main.tf", b"resource \"terraform_data\" \"a\" {}\n")],
    );
    let out = tflint_merge(t.path(), &["--color", "never", "m"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "no findings in 1 directory (1 file)\n");
}

#[test]
fn findings_exit_one_and_fail_on_controls_it() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[(
            "m/main.tf",
            b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n",
        )],
    );
    assert_eq!(tflint_merge(t.path(), &["m"]).status.code(), Some(1));
    assert_eq!(
        tflint_merge(t.path(), &["--fail-on", "warning", "m"])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn usage_errors_exit_two() {
    let t = tempfile::tempdir().expect("tempdir");
    assert_eq!(
        tflint_merge(t.path(), &["--view", "nope"]).status.code(),
        Some(2)
    );
    assert_eq!(
        tflint_merge(t.path(), &["does-not-exist/"]).status.code(),
        Some(2)
    );
    assert_eq!(
        tflint_merge(t.path(), &["--exclude", "a[", "."])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        tflint_merge(t.path(), &["-j", "0", "."]).status.code(),
        Some(2)
    );
}

#[test]
fn help_and_version_exit_zero() {
    let t = tempfile::tempdir().expect("tempdir");
    let help = tflint_merge(t.path(), &["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Examples:"));
    assert_eq!(
        tflint_merge(t.path(), &["--version"]).status.code(),
        Some(0)
    );
}

#[test]
fn syntax_errors_are_located_and_other_directories_still_checked() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("a/main.tf", b"resource \"x\" \"a\" {\n  b = \n}\n"),
            ("b/main.tf.json", b"{\"resource\": {\"x\": {\"a\": {}}},}"),
            (
                "c/main.tf",
                b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n",
            ),
        ],
    );
    let out = tflint_merge(t.path(), &["--format", "short", "."]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.contains("a/main.tf:2:"), "{text}");
    assert!(text.contains("error[syntax_error]"), "{text}");
    assert!(text.contains("b/main.tf.json:1:"), "{text}");
    assert!(
        text.contains("c/main.tf:2:1: error[duplicate_definition]"),
        "{text}"
    );
}

/// Bytes that are not UTF-8 are what HCL's scanner makes of them (Terraform 1.15.5 judged):
/// in a string, `Invalid character encoding` at the byte; in comments (overlong and surrogate
/// encodings too) nothing, and the file loads.
#[test]
fn non_utf8_bytes_are_judged_where_they_stand() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"a = 1\nb = \"\xff\"\n"),
            (
                "n/main.tf",
                b"# caf\xe9 \xc0\xaf\nlocals {\n  x = 1 // \xed\xa0\x80\n}\n/* \xff */\n",
            ),
        ],
    );
    let out = tflint_merge(t.path(), &["--format", "short", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "m/main.tf:2:6: error[syntax_error]: Invalid character encoding\n"
    );
}

/// HCL scans a whole file before it parses it, and reports the characters it refuses before
/// any parse error, wherever they are (Terraform 1.15.5 judged): the `;` after the missing
/// bracket, not the missing item separator the parser meets first.
#[test]
fn a_refused_character_comes_before_an_earlier_parse_error() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[("m/main.tf", b"locals {\n  a = [1,\n  c = 1 ; 2\n}\n")],
    );
    let out = tflint_merge(t.path(), &["--format", "short", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "m/main.tf:3:9: error[syntax_error]: Invalid character\n"
    );
}

/// A symlink back to an ancestor is skipped with a notice, and a directory reached twice is
/// checked once with a notice: neither fails the run.
#[cfg(unix)]
#[test]
fn symlinks_to_ancestors_and_twice_reached_directories_are_notices() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"resource \"terraform_data\" \"a\" {}\n"),
            ("b/main.tf", b"resource \"terraform_data\" \"b\" {}\n"),
        ],
    );
    std::os::unix::fs::symlink(t.path().join("m"), t.path().join("m/again")).expect("symlink");
    std::os::unix::fs::symlink(t.path().join("m"), t.path().join("b/m")).expect("symlink");
    let out = tflint_merge(t.path(), &["--color", "never", "."]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}{stderr}", stdout(&out));
    assert_eq!(stdout(&out), "no findings in 2 directories (2 files)\n");
    // Met through `b/m` first (the walk is in name order), where the loop is `b/m/again`; `m`
    // itself is then the same directory, not walked again.
    assert!(
        stderr.contains("notice: b/m/again: a symlink back to"),
        "{stderr}"
    );
    // The real path is the one checked.
    assert!(
        stderr.contains("notice: b/m: the same directory as m, checked once"),
        "{stderr}"
    );
}

/// An argument that names nothing is a usage error: said alone (not with the walk's notices
/// of the other arguments), and nothing is checked.
#[cfg(unix)]
#[test]
fn a_missing_argument_is_the_one_thing_said() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/override.tf", b"resource \"x\" \"b\" {}\n")]);
    std::os::unix::fs::symlink(t.path().join("m"), t.path().join("link")).expect("symlink");
    let out = tflint_merge(t.path(), &["--format", "short", ".", "missing"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: no such file or directory: missing\n"
    );
}

#[test]
fn file_arguments_mean_their_directory_once() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"resource \"x\" \"a\" {}\n"),
            ("m/override.tf", b"resource \"x\" \"b\" {}\n"),
        ],
    );
    // Only the override is staged, plus a deleted file: the base still counts.
    let out = tflint_merge(
        t.path(),
        &["--format", "short", "m/override.tf", "m/deleted.tf"],
    );
    assert_eq!(
        stdout(&out),
        "m/override.tf:1:1: error[override_without_base]: Missing resource to override\n"
    );
}

#[test]
fn exclude_skips_matching_directories() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("keep/main.tf", b"locals {\n  x = 1\n}\n"),
            (
                "skip/main.tf",
                b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n",
            ),
        ],
    );
    let out = tflint_merge(t.path(), &["--exclude", "skip", "--color", "never", "."]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "no findings in 1 directory (1 file)\n");
}

/// `--exclude` takes a path as typed (`./examples/web`, absolute) and file globs: an excluded
/// file is still loaded with its module (the override it holds still merges) but its findings
/// are not reported; a glob that matches nothing is a notice, not silence.
#[test]
fn exclude_takes_dot_slash_paths_and_file_globs_and_names_globs_that_match_nothing() {
    let t = tempfile::tempdir().expect("tempdir");
    let duplicate: &[u8] = b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n";
    write(
        t.path(),
        &[
            ("examples/web/main.tf", duplicate),
            ("m/main.tf", b"variable \"a\" {}\n"),
            (
                "m/generated_override.tf",
                b"variable \"a\" {}\nvariable \"gone\" {}\n",
            ),
            ("m/extra_override.tf", b"variable \"missing\" {}\n"),
        ],
    );
    let short = |args: &[&str]| {
        let mut all = vec!["--format", "short"];
        all.extend(args);
        let out = tflint_merge(t.path(), &all);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (stdout(&out), stderr)
    };
    let (all, _) = short(&["."]);
    assert!(all.contains("examples/web/main.tf"), "{all}");
    assert!(all.contains("m/generated_override.tf"), "{all}");
    let absolute = t.path().join("examples/web");
    for glob in [
        "./examples/web",
        "examples/web/",
        absolute.to_str().expect("UTF-8"),
    ] {
        let (out, stderr) = short(&["--exclude", glob, "."]);
        assert!(!out.contains("examples/web"), "{glob}: {out}");
        assert!(out.contains("m/generated_override.tf"), "{glob}: {out}");
        assert_eq!(stderr, "", "{glob}");
    }
    // The file's findings go; the module is loaded with it, so `a` is still found there and
    // only the other override's finding is left.
    let (out, _) = short(&["--exclude", "m/generated_*.tf", "."]);
    assert!(!out.contains("generated"), "{out}");
    assert!(out.contains("m/extra_override.tf"), "{out}");
    assert!(!out.contains("m/main.tf"), "{out}");
    let (out, stderr) = short(&["--exclude", "examples/web", "--exclude", "web/nope", "."]);
    assert!(!out.contains("examples/web"), "{out}");
    assert_eq!(
        stderr,
        "notice: --exclude `web/nope` matched no path below the paths checked\n"
    );
}

/// Config `exclude` globs are relative to the config file's directory, from a subdirectory,
/// with an absolute path, or with `--config` from elsewhere.
#[test]
fn config_exclude_is_relative_to_the_config_files_directory() {
    let t = tempfile::tempdir().expect("tempdir");
    let broken: &[u8] = b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n";
    write(
        t.path(),
        &[
            (
                "repo/.tflint-merge.yaml",
                b"exclude: [\"infra/generated/**\"]\n",
            ),
            ("repo/infra/main.tf", b"locals {\n  x = 1\n}\n"),
            ("repo/infra/generated/main.tf", broken),
            ("other/main.tf", b"locals {\n  x = 1\n}\n"),
        ],
    );
    let repo = t.path().join("repo");
    let absolute_infra = repo.join("infra");
    let absolute_infra = absolute_infra.to_str().expect("UTF-8 path");
    let config = repo.join(".tflint-merge.yaml");
    let config = config.to_str().expect("UTF-8 path");
    let runs: [(&Path, Vec<&str>); 5] = [
        (&repo, vec!["."]),
        (&repo, vec!["infra"]),
        (&repo.join("infra"), vec!["."]),
        (&repo.join("infra"), vec![absolute_infra]),
        (
            &t.path().join("other"),
            vec!["--config", config, absolute_infra],
        ),
    ];
    for (cwd, args) in runs {
        let mut args = args.clone();
        args.extend(["--format", "short"]);
        let out = tflint_merge(cwd, &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{cwd:?} {args:?}: {}",
            stdout(&out)
        );
    }
    // Without the config, the broken directory is found.
    let out = tflint_merge(&t.path().join("other"), &[absolute_infra]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}

/// A one-value flag given twice takes the last value (wrappers put defaults first).
#[test]
fn one_value_flags_given_twice_take_the_last_value() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/main.tf", b"locals {\n  x = 1\n}\n")]);
    let out = tflint_merge(
        t.path(),
        &[
            "--format", "json", "--view", "both", "--format", "short", "--view", "opentofu", "m",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
}

#[test]
fn findings_in_one_view_say_so() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"resource \"x\" \"a\" {}\n"),
            ("m/extra.tofu", b"resource \"x\" \"a\" {}\n"),
        ],
    );
    let out = tflint_merge(t.path(), &["--format", "short", "."]);
    assert_eq!(
        stdout(&out),
        "m/main.tf:1:1: error[duplicate_definition]: Duplicate resource \"x\" configuration (opentofu view)\n\
         m/main.tf:1:1: warning[views_diverge]: the Terraform and OpenTofu views differ: only OpenTofu fails with \"Duplicate resource \"x\" configuration\"\n"
    );
}

#[test]
fn closed_stdout_is_not_an_error() {
    let t = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    for i in 0..200 {
        files.push((
            format!("m{i}/main.tf"),
            b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n".to_vec(),
        ));
    }
    for (name, content) in &files {
        write(t.path(), &[(name.as_str(), content.as_slice())]);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
        .args(["--color", "never", "."])
        .current_dir(t.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take()); // the reader goes away at once, like `| head -0`
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn human_output_snapshot() {
    let out = tflint_merge(&fixtures().join("render"), &["--color", "never", "module"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("human", stdout(&out));
}

#[test]
fn short_output_snapshot() {
    let out = tflint_merge(&fixtures().join("render"), &["--format", "short", "module"]);
    insta::assert_snapshot!("short", stdout(&out));
}

#[test]
fn same_output_whatever_the_thread_count() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance"));
    let one = tflint_merge(root, &["-j", "1", "--format", "short", "."]);
    let four = tflint_merge(root, &["-j", "4", "--format", "short", "."]);
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, four.stdout);
}

#[test]
fn too_large_file_is_reported_and_limit_can_be_raised() {
    let t = tempfile::tempdir().expect("tempdir");
    let big = "resource \"terraform_data\" \"a\" {}\n".repeat(40_000); // ~1.4 MB
    write(
        t.path(),
        &[
            ("m/main.tf", big.as_bytes()),
            ("n/main.tf", b"locals {\n  x = 1\n}\n"),
        ],
    );
    let out = tflint_merge(
        t.path(),
        &["--format", "short", "--max-file-size", "1", "."],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with(
            "m/main.tf: error[read_error]: file too large to check: 1.3 MiB (the limit is 1.0 MiB)"
        ),
        "{}",
        stdout(&out)
    );
    let out = tflint_merge(
        t.path(),
        &["--format", "short", "--max-file-size", "2", "."],
    );
    assert!(
        stdout(&out).contains("Duplicate resource"),
        "{}",
        stdout(&out)
    );
}

/// Files are read and parsed in parallel; each finding still points into its own file when an
/// unreadable file comes first (it has no text, so the files after it are numbered one lower).
#[test]
fn findings_point_into_their_files_after_an_unreadable_one() {
    let t = tempfile::tempdir().expect("tempdir");
    let big = "# padding\n".repeat(200_000); // ~2 MB
    let redefined = b"locals {\n  x = 1\n  x = 2\n}\n";
    write(
        t.path(),
        &[
            ("m/a.tf", big.as_bytes()),
            ("m/b.tf", redefined),
            ("m/c.tf", b"\n\nlocals {\n  y = 1\n  y = 2\n}\n"),
        ],
    );
    let out = tflint_merge(
        t.path(),
        &["--format", "short", "--max-file-size", "1", "."],
    );
    let text = stdout(&out);
    assert!(text.starts_with("m/a.tf: error[read_error]"), "{text}");
    assert!(text.contains("m/b.tf:3:3: "), "{text}");
    assert!(text.contains("m/c.tf:5:3: "), "{text}");
}

#[test]
fn a_directory_named_like_a_file_is_not_configuration() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"locals {\n  x = 1\n}\n"),
            ("m/backup.tf/inner.txt", b""),
        ],
    );
    let out = tflint_merge(t.path(), &["--color", "never", "m"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_directory_named_like_a_file_fails_to_read() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"locals {\n  x = 1\n}\n"),
            ("other/x.txt", b""),
        ],
    );
    std::os::unix::fs::symlink(t.path().join("other"), t.path().join("m/link.tf"))
        .expect("symlink");
    // The whole tree is checked: the link leads inside it (out of `m` alone it is not read).
    let out = tflint_merge(t.path(), &["--format", "short", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "m/link.tf: error[read_error]: Failed to read file: it is a directory\n"
    );
}

const NOOP_BASE: &[u8] = b"resource \"terraform_data\" \"a\" {\n  input = 1\n}\n";
const NOOP_OVERRIDE: &[u8] = b"resource \"terraform_data\" \"a\" {\n  input = 1\n}\n";

#[test]
fn examples_show_every_override_rule_with_labels_in_both_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tflint_merge(
        root,
        &[
            "--color",
            "never",
            "--enable-rule",
            "override_undocumented",
            "--enable-rule",
            "override_only_file",
            "examples/",
        ],
    );
    let text = stdout(&out);
    for rule in [
        "override_clobbers_nested_blocks",
        "override_noop",
        "override_replaces_provisioners",
        "override_shadowed",
        "override_undocumented",
        "override_only_file",
        "override_ignored_setting",
        "override_misspelled_argument",
        "override_count_for_each_conflict",
    ] {
        assert!(
            text.contains(&format!("[{rule}]")),
            "{rule} missing from the examples run"
        );
    }
    insta::assert_snapshot!("examples", text);
}

#[test]
fn config_file_sets_rules_and_is_found_in_a_parent_directory() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", NOOP_BASE),
            ("m/override.tf", NOOP_OVERRIDE),
            (
                ".tflint-merge.yaml",
                b"fail_on: warning\nrules:\n  override_noop: notice\n",
            ),
        ],
    );
    // Run from a sub-directory: the config of the parent applies.
    let out = tflint_merge(&t.path().join("m"), &["--format", "short", "."]);
    assert_eq!(
        stdout(&out),
        "override.tf:1:1: notice[override_noop]: [*] override file `override.tf` changes nothing: it only restates its base\n"
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "a notice is below fail_on: warning"
    );
    let out = tflint_merge(
        &t.path().join("m"),
        &["--format", "short", "--fail-on", "notice", "."],
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn config_errors_are_located_and_exit_two() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", NOOP_BASE),
            (
                ".tflint-merge.yaml",
                b"rules:\n  override_noop: off\n  overide_shadowed: warning\n",
            ),
        ],
    );
    let out = tflint_merge(t.path(), &["m"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".tflint-merge.yaml:3:3: rules: unknown rule `overide_shadowed`; did you mean `override_shadowed`?"), "{err}");

    write(
        t.path(),
        &[(".tflint-merge.yaml", b"view: both\nexcludes: [a]\n")],
    );
    let err = String::from_utf8_lossy(&tflint_merge(t.path(), &["m"]).stderr).into_owned();
    assert!(
        err.contains(".tflint-merge.yaml:2:1: unknown field `excludes`"),
        "{err}"
    );

    // A value of the wrong name is located at the value, with the closest name.
    write(
        t.path(),
        &[(".tflint-merge.yaml", b"fail_on: warning\nview:   bth\n")],
    );
    let out = tflint_merge(t.path(), &["m"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains(
            ".tflint-merge.yaml:2:9: invalid view `bth`; did you mean `both`? (use terraform, \
             opentofu or both)\n"
        ),
        "{err}"
    );
    write(t.path(), &[(".tflint-merge.yaml", b"format: jsn\n")]);
    let err = String::from_utf8_lossy(&tflint_merge(t.path(), &["m"]).stderr).into_owned();
    assert!(
        err.contains(".tflint-merge.yaml:1:9: invalid format `jsn`; did you mean `json`?"),
        "{err}"
    );

    write(
        t.path(),
        &[(
            ".tflint-merge.yaml",
            b"rules:\n  duplicate_definition: off\n",
        )],
    );
    let out = tflint_merge(t.path(), &["m"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a load error"));
}

#[test]
fn explicit_config_flag_and_cli_flags_override_the_file() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", NOOP_BASE),
            ("m/override.tf", NOOP_OVERRIDE),
            ("conf/custom.yaml", b"rules:\n  override_noop: off\n"),
        ],
    );
    let short = ["--format", "short"];
    let quiet = tflint_merge(
        t.path(),
        &[&short[..], &["--config", "conf/custom.yaml", "m"]].concat(),
    );
    assert_eq!(stdout(&quiet), "");
    let loud = tflint_merge(
        t.path(),
        &[
            &short[..],
            &[
                "--config",
                "conf/custom.yaml",
                "--enable-rule",
                "override_noop",
                "m",
            ],
        ]
        .concat(),
    );
    assert!(stdout(&loud).contains("[override_noop]"));
    let off = tflint_merge(
        t.path(),
        &[&short[..], &["--disable-rule", "override_noop", "m"]].concat(),
    );
    assert_eq!(stdout(&off), "");
    let only = tflint_merge(
        t.path(),
        &[&short[..], &["--only", "override_shadowed", "m"]].concat(),
    );
    assert_eq!(stdout(&only), "");
    let bad = tflint_merge(t.path(), &["--only", "nope", "m"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn inline_ignores_silence_findings_and_unused_ones_are_reported() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"resource \"terraform_data\" \"a\" {\n  input = 1\n  triggers_replace = 2\n}\n"),
            (
                "m/override.tf",
                b"# tflint-merge-ignore: override_noop  kept on purpose\nresource \"terraform_data\" \"a\" { // tflint-merge-ignore: override_shadowed\n  input = 1\n  triggers_replace = 2\n}\n",
            ),
        ],
    );
    let out = tflint_merge(t.path(), &["--format", "short", "m"]);
    assert_eq!(
        stdout(&out),
        "m/override.tf:2:33: warning[unused_ignore]: [*] unused ignore: `override_shadowed` reported nothing here to ignore\n"
    );
    // A file-level ignore, and `all`.
    write(
        t.path(),
        &[("m/override.tf", b"/* tflint-merge-ignore-file: all */\nresource \"terraform_data\" \"a\" {\n  input = 1\n  triggers_replace = 2\n}\n")],
    );
    assert_eq!(
        stdout(&tflint_merge(t.path(), &["--format", "short", "m"])),
        ""
    );
    // JSON: a root "//" comment.
    std::fs::remove_file(t.path().join("m/override.tf")).expect("rm");
    write(
        t.path(),
        &[("m/override.tf.json", b"{\"//\": \"tflint-merge-ignore-file: override_noop\", \"resource\": {\"terraform_data\": {\"a\": {\"input\": 1}}}}")],
    );
    assert_eq!(
        stdout(&tflint_merge(t.path(), &["--format", "short", "m"])),
        ""
    );
    // Load errors cannot be ignored.
    write(
        t.path(),
        &[(
            "m/dup.tf",
            b"# tflint-merge-ignore: duplicate_definition\nresource \"terraform_data\" \"a\" {}\n",
        )],
    );
    let text = stdout(&tflint_merge(t.path(), &["--format", "short", "m"]));
    assert!(text.contains("error[duplicate_definition]"), "{text}");
    assert!(
        text.contains(
            "warning[unused_ignore]: [*] unused ignore: `duplicate_definition` is a load error"
        ),
        "{text}"
    );
}

/// A comment that looks like an ignore but is not one is reported, not silently dropped.
#[test]
fn malformed_ignore_comments_are_reported() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", b"variable \"a\" {}\n"),
            (
                "m/override.tf",
                b"# tflint-merge-ignore override_without_base\nvariable \"b\" {}\n\
                  # tflint-merge-ignore:\n\
                  // tflint-merge-ignore-file\n\
                  # tflint-merge-ignored comments are just comments\n",
            ),
        ],
    );
    let out = tflint_merge(t.path(), &["--format", "short", "m"]);
    assert_eq!(
        stdout(&out),
        "m/override.tf:1:1: warning[unused_ignore]: malformed ignore comment: no `:` after \
         `tflint-merge-ignore`\n\
         m/override.tf:2:1: error[override_without_base]: Missing base variable declaration \
         to override\n\
         m/override.tf:3:1: warning[unused_ignore]: malformed ignore comment: it names no rule \
         before its reason\n\
         m/override.tf:4:1: warning[unused_ignore]: malformed ignore comment: no `:` after \
         `tflint-merge-ignore-file`\n"
    );
    let out = tflint_merge(
        t.path(),
        &["--disable-rule", "unused_ignore", "--format", "short", "m"],
    );
    assert_eq!(
        stdout(&out),
        "m/override.tf:2:1: error[override_without_base]: Missing base variable declaration to \
         override\n"
    );
}

/// Did-you-mean for a subcommand typed as a path, a flag, and a rule id on the command line
/// (config files and ignore comments: `config_errors_are_located_and_exit_two`, the
/// `unused_ignore` doc's example).
#[test]
fn typos_get_suggestions() {
    let t = tempfile::tempdir().expect("tempdir");
    let stderr = |args: &[&str]| {
        let out = tflint_merge(t.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let text = stderr(&["merge"]);
    assert!(
        text.contains(
            "error: no such file or directory: merge\n  tip: did you mean the subcommand `merged`?"
        ),
        "{text}"
    );
    assert!(
        !stderr(&["infra"]).contains("tip"),
        "no subcommand is close"
    );
    // A word that is an option's name without its dashes.
    let text = stderr(&["version"]);
    assert!(
        text.contains(
            "error: no such file or directory: version\n  tip: did you mean the option \
             `--version`? (`tflint-merge --version`)\n"
        ),
        "{text}"
    );
    assert!(stderr(&["fix"]).contains("the option `--fix`?"));
    let text = stderr(&["--formt", "json"]);
    assert!(
        text.contains("a similar argument exists: '--format'"),
        "{text}"
    );
    let text = stderr(&["--enable-rule", "override_noops", "."]);
    assert!(text.contains("did you mean `override_noop`?"), "{text}");
}

#[test]
fn rules_and_explain_commands() {
    let t = tempfile::tempdir().expect("tempdir");
    let list = stdout(&tflint_merge(t.path(), &["rules"]));
    assert!(list.contains("override_undocumented"));
    assert!(list.contains("TARGETED RELEASES"), "{list}");
    assert!(
        list.contains("--terraform-version/--opentofu-version"),
        "{list}"
    );
    assert!(list.lines().any(|l| l.starts_with("override_only_file")
        && l.contains("notice")
        && l.contains(" off ")));
    let doc = tflint_merge(t.path(), &["explain", "override_without_base"]);
    assert_eq!(doc.status.code(), Some(0));
    assert!(stdout(&doc).starts_with("# override_without_base"));
    assert_eq!(
        tflint_merge(t.path(), &["explain", "nope"]).status.code(),
        Some(2)
    );
}

// --- habits from ruff and TFLint --------------------------------------------------------------

const DUPLICATE: &[u8] = b"resource \"x\" \"a\" {}\nresource \"x\" \"a\" {}\n";

#[test]
fn exit_zero_reports_but_does_not_fail() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/main.tf", DUPLICATE)]);
    let out = tflint_merge(t.path(), &["--exit-zero", "--format", "short", "m"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("error[duplicate_definition]"));
    let out = tflint_merge(t.path(), &["--exit-zero", "missing"]);
    assert_eq!(out.status.code(), Some(2), "a usage error is still 2");
}

#[test]
fn statistics_count_findings_per_rule() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("a/main.tf", DUPLICATE),
            ("b/main.tf", DUPLICATE),
            ("c/main.tf", b"variable \"v\" {}\n"),
            ("c/override.tf", b"variable \"w\" {}\n"),
        ],
    );
    let out = tflint_merge(t.path(), &["--statistics", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "    2  duplicate_definition   error\n    1  override_without_base  error\n"
    );
    // With `--format json`, JSON (as ruff's `--statistics --output-format json`).
    let out = tflint_merge(t.path(), &["--statistics", "--format", "json", "."]);
    assert_eq!(out.status.code(), Some(1));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        rows,
        serde_json::json!([
            {"rule": "duplicate_definition", "severity": "error", "count": 2, "fixable": 0},
            {"rule": "override_without_base", "severity": "error", "count": 1, "fixable": 0},
        ])
    );
}

#[test]
fn show_settings_prints_each_value_and_its_origin() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[(
            ".tflint-merge.yaml",
            b"fail_on: warning\nexclude: [gen]\nopentofu_version: \"~> 1.9\"\nrules:\n  \
              override_noop: off\n  \
              override_only_file: { threshold: 0.5 }\n",
        )],
    );
    let out = tflint_merge(
        t.path(),
        &[
            "--show-settings",
            "--view",
            "opentofu",
            "--exclude",
            "tmp",
            "--disable-rule",
            "override_shadowed",
            "--terraform-version",
            ">= 1.6",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let config = t.path().join(".tflint-merge.yaml");
    let config_line = format!("config file: {}\n", config.display());
    assert!(text.starts_with(&config_line), "{text}");
    for line in [
        "view: opentofu  (command line)\n",
        "format: human  (default)\n",
        "fail_on: warning  (config file)\n",
        "exclude: gen  (config file, relative to its directory)\n",
        "exclude: tmp  (command line)\n",
        "terraform_version: >= 1.6  (command line)\n",
        "opentofu_version: ~> 1.9  (config file)\n",
    ] {
        assert!(text.contains(line), "{line:?} in:\n{text}");
    }
    let rule = |id: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    assert_eq!(
        rule("override_noop").as_deref(),
        Some("override_noop off (config file)")
    );
    assert_eq!(
        rule("override_shadowed").as_deref(),
        Some("override_shadowed off (command line)")
    );
    assert!(
        text.contains("\n    threshold: 0.5  (config file)\n"),
        "{text}"
    );
    assert_eq!(
        rule("override_without_base").as_deref(),
        Some("override_without_base error (default)")
    );
}

#[cfg(unix)]
#[test]
fn quiet_prints_only_the_findings() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/main.tf", DUPLICATE)]);
    std::os::unix::fs::symlink(t.path().join("m"), t.path().join("m/again")).expect("symlink");
    let loud = tflint_merge(t.path(), &["--color", "never", "."]);
    assert!(stdout(&loud).ends_with("1 error in 1 directory (1 file)\n"));
    assert!(!loud.stderr.is_empty());
    let out = tflint_merge(t.path(), &["-q", "--color", "never", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("error[duplicate_definition]"));
    assert!(!stdout(&out).contains("1 error in"), "{}", stdout(&out));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn no_color_wins_over_color_always() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/main.tf", DUPLICATE)]);
    let coloured = tflint_merge(t.path(), &["--color", "always", "m"]);
    assert!(stdout(&coloured).contains('\u{1b}'));
    let out = tflint_merge(t.path(), &["--color", "always", "--no-color", "m"]);
    assert!(!stdout(&out).contains('\u{1b}'), "{}", stdout(&out));
}

#[test]
fn chdir_finds_the_config_and_paths_there() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("repo/.tflint-merge.yaml", b"exclude: [skip]\n"),
            ("repo/skip/main.tf", DUPLICATE),
            ("repo/m/main.tf", b"variable \"v\" {}\n"),
        ],
    );
    let out = tflint_merge(t.path(), &["--chdir", "repo", "--color", "never", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "no findings in 1 directory (1 file)\n");
    let out = tflint_merge(t.path(), &["--chdir", "nowhere", "."]);
    assert_eq!(out.status.code(), Some(2));
}

/// A git work tree `repo` holding `files`, in a temporary directory.
fn git_work_tree(files: &[(&str, &[u8])]) -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().expect("tempdir");
    let repo = t.path().join("repo");
    write(&repo, files);
    std::fs::create_dir_all(repo.join(".git")).expect("a git work tree");
    (t, repo)
}

#[test]
fn gitignored_paths_are_skipped_unless_asked_or_named() {
    let (_t, repo) = git_work_tree(&[
        (".gitignore", b"generated/\n"),
        ("infra/.gitignore", b"*.local\n!keep.local\n"),
        ("generated/main.tf", DUPLICATE),
        ("infra/main.tf", b"variable \"v\" {}\n"),
        ("infra/scratch.local/main.tf", DUPLICATE),
        ("infra/keep.local/main.tf", b"variable \"v\" {}\n"),
    ]);
    let checked = |cwd: &Path, args: &[&str]| {
        let mut args = args.to_vec();
        args.extend(["--color", "never"]);
        stdout(&tflint_merge(cwd, &args))
    };
    assert_eq!(
        checked(&repo, &["."]),
        "no findings in 2 directories (2 files)\n"
    );
    // From a subdirectory, the root's .gitignore still applies to what is walked.
    assert_eq!(
        checked(&repo.join("infra"), &["."]),
        "no findings in 2 directories (2 files)\n"
    );
    // A path named on the command line is checked.
    assert!(checked(&repo, &["generated"]).contains("1 error"));
    assert!(checked(&repo, &["--no-respect-gitignore", "."]).contains("2 errors in 4 directories"));
    // Outside a git work tree, .gitignore means nothing.
    std::fs::remove_dir(repo.join(".git")).expect("rmdir");
    assert!(checked(&repo, &["."]).contains("2 errors in 4 directories"));
}

/// A git-ignored configuration file of a module directory is not loaded: the hook and CI check
/// the module as committed, not a developer's local override file (Terraform's .gitignore
/// template ignores override files). The run says what it left out, and
/// `--no-respect-gitignore` loads it, as the tools do.
#[test]
fn a_gitignored_file_of_a_module_directory_is_not_loaded_and_the_run_says_so() {
    let (_t, repo) = git_work_tree(&[
        (".gitignore", b"override.tf\n*_override.tf\n"),
        ("m/main.tf", b"resource \"x\" \"a\" {\n  v = 1\n}\n"),
        ("m/override.tf", b"resource \"x\" \"a\" {\n  v = 1\n}\n"),
        ("m/local_override.tf", b"resource \"x\" \"nobase\" {}\n"),
    ]);
    let out = tflint_merge(&repo, &["--format", "short", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    for name in ["m/local_override.tf", "m/override.tf"] {
        assert!(
            stderr.contains(&format!(
                "notice: {name}: ignored by .gitignore: not loaded, though Terraform and \
                 OpenTofu load it here (--no-respect-gitignore checks it)"
            )),
            "{stderr}"
        );
    }
    let out = tflint_merge(&repo, &["--format", "short", "--no-respect-gitignore", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("m/local_override.tf:1:1: error[override_without_base]")
            && text.contains("m/override.tf:1:1: warning[override_noop]"),
        "{text}"
    );
    // A module directory whose every file is ignored is no module directory.
    std::fs::write(repo.join(".gitignore"), "*.tf\n").expect("write");
    let out = tflint_merge(&repo, &["--color", "never", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// Past a few git-ignored files in one directory, one notice counts the rest: a directory of
/// thousands of local override files does not print a line for each.
#[test]
fn many_gitignored_files_of_a_directory_are_counted_in_one_notice() {
    let names: Vec<String> = (0..8).map(|i| format!("m/l{i}_override.tf")).collect();
    let mut files: Vec<(&str, &[u8])> = vec![
        (".gitignore", b"*_override.tf\n"),
        ("m/main.tf", b"variable \"a\" {}\n"),
    ];
    files.extend(
        names
            .iter()
            .map(|n| (n.as_str(), &b"variable \"a\" {}\n"[..])),
    );
    let (_t, repo) = git_work_tree(&files);
    let out = tflint_merge(&repo, &["--format", "short", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let named = stderr
        .lines()
        .filter(|l| l.contains(": ignored by .gitignore"))
        .count();
    assert_eq!(named, 5, "{stderr}");
    assert!(
        stderr.contains(
            "notice: m: 3 more configuration files ignored by .gitignore: not loaded, though \
             Terraform and OpenTofu load them here (--no-respect-gitignore checks them)"
        ),
        "{stderr}"
    );
}

/// The JSON `views` of each finding of `args` run on `dir`, by rule.
fn json_views(dir: &Path, args: &[&str]) -> Vec<(String, Vec<String>)> {
    let out = tflint_merge(dir, &[&["--format", "json"], args].concat());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON output");
    let findings = json["findings"].as_array().expect("findings");
    findings
        .iter()
        .map(|f| {
            let views = f["views"].as_array().expect("views");
            let views = views
                .iter()
                .map(|v| v.as_str().expect("a view").to_string());
            (
                f["rule"].as_str().expect("rule").to_string(),
                views.collect(),
            )
        })
        .collect()
}

#[test]
fn json_views_always_name_the_views_a_finding_is_about() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("m/main.tf", NOOP_BASE),
            ("m/override.tf", NOOP_OVERRIDE),
            // OpenTofu reads `main.tofu` instead of `main.tf`: a directory rule's finding.
            ("m/main.tofu", b"variable \"v\" {}\n"),
            (
                "m/main_override.tofu",
                b"variable \"v\" {\n  default = 1\n}\n",
            ),
        ],
    );
    let both = ["terraform".to_string(), "opentofu".to_string()];
    let found = json_views(t.path(), &["m"]);
    assert!(
        found.contains(&("tofu_shadows_tf".into(), both.to_vec())),
        "{found:?}"
    );
    assert!(
        found.contains(&("override_noop".into(), vec!["terraform".into()])),
        "{found:?}"
    );
    for (view, name) in [("terraform", "terraform"), ("opentofu", "opentofu")] {
        let found = json_views(t.path(), &["--view", view, "m"]);
        assert!(!found.is_empty());
        assert!(
            found.iter().all(|(_, views)| views == &[name.to_string()]),
            "{view}: {found:?}"
        );
    }
    // With one view checked, the human and short formats do not name it on every finding.
    let short = tflint_merge(t.path(), &["--format", "short", "--view", "terraform", "m"]);
    assert!(!stdout(&short).contains("view)"), "{}", stdout(&short));
    let human = tflint_merge(t.path(), &["--color", "never", "--view", "terraform", "m"]);
    assert!(!stdout(&human).contains("view only"), "{}", stdout(&human));
}

#[test]
fn duplicate_definition_help_fits_where_the_copies_are() {
    let t = tempfile::tempdir().expect("tempdir");
    let block = "resource \"terraform_data\" \"a\" {}\n";
    write(
        t.path(),
        &[
            ("same/main.tf", format!("{block}{block}").as_bytes()),
            ("apart/main.tf", block.as_bytes()),
            (
                "providers/main.tf",
                b"terraform {\n  required_providers {}\n}\nterraform {\n  required_providers {}\n}\n",
            ),
            (
                "apart/z.tf.json",
                br#"{"resource": {"terraform_data": {"a": {}}}}"#,
            ),
        ],
    );
    let help = |dir: &str| {
        let out = tflint_merge(t.path(), &["--format", "json", dir]);
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON output");
        json["findings"][0]["help"]
            .as_str()
            .expect("a help")
            .to_string()
    };
    assert_eq!(
        help("same"),
        "remove one of the two definitions, or give one of them another name"
    );
    assert_eq!(
        help("providers"),
        "move the entries of this block into the first one"
    );
    assert_eq!(
        help("apart"),
        "remove one of the two definitions; to change the first from `z.tf.json`, move the \
         changed arguments into an override file (`z_override.tf.json`)"
    );
}

/// `merged FILE` prints the module of the directory holding the file, as `check FILE` checks
/// it.
#[test]
fn merged_of_a_file_is_its_directorys_module() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let of_dir = tflint_merge(&examples, &["merged", "web"]);
    let of_file = tflint_merge(&examples, &["merged", "web/override.tf"]);
    assert_eq!(of_file.status.code(), of_dir.status.code());
    assert_eq!(of_file.status.code(), Some(1), "web has errors");
    assert_eq!(stdout(&of_file), stdout(&of_dir));
    assert!(
        stdout(&of_file).contains("resource"),
        "{}",
        stdout(&of_file)
    );
    let missing = tflint_merge(&examples, &["merged", "web/nope.tf"]);
    assert_eq!(missing.status.code(), Some(2));
}

/// `--output-file PATH` takes the output of `--format` off stdout (uncoloured); `FORMAT=PATH`
/// adds a report in that format from the same run, its directory made; the exit status is
/// the run's.
#[test]
fn output_file_writes_the_output_and_more_formats_from_one_run() {
    let t = tempfile::tempdir().expect("tempdir");
    write(t.path(), &[("m/main.tf", DUPLICATE)]);
    let short =
        "m/main.tf:2:1: error[duplicate_definition]: Duplicate resource \"x\" configuration\n";
    let out = tflint_merge(
        t.path(),
        &[
            "--output-format",
            "short",
            "--output-file",
            "sarif=results/run.sarif",
            "--output-file",
            "json=run.json",
            "m",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), short);
    let sarif: serde_json::Value = serde_json::from_slice(
        &std::fs::read(t.path().join("results/run.sarif")).expect("SARIF written"),
    )
    .expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        sarif["runs"][0]["results"][0]["ruleId"],
        "duplicate_definition"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(t.path().join("run.json")).expect("JSON written"))
            .expect("JSON");
    assert_eq!(json["findings"][0]["rule"], "duplicate_definition");

    let out = tflint_merge(
        t.path(),
        &[
            "--format",
            "short",
            "--output-file",
            "out/short.txt",
            "--color",
            "auto",
            "m",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    let written = std::fs::read_to_string(t.path().join("out/short.txt")).expect("written");
    assert_eq!(written, short);

    let out = tflint_merge(t.path(), &["--output-file", "a", "--output-file", "b", "m"]);
    assert_eq!(out.status.code(), Some(2));
    // What --diff and --add-ignore print is no report: no file would get it.
    for other in ["--diff", "--add-ignore=why"] {
        let out = tflint_merge(t.path(), &["--output-file", "sarif=x.sarif", other, "m"]);
        assert_eq!(out.status.code(), Some(2), "{other}");
    }
    assert!(!t.path().join("x.sarif").exists());
}

/// Rules are selected as in ruff: `--select` (`--only`), `--extend-select` (`--enable-rule`)
/// and `--ignore` (`--disable-rule`) take ids, globs and prefixes of ids; the selection comes
/// first, then what is added, then what is taken out. Load errors are always reported.
#[test]
fn rules_are_selected_by_id_glob_or_prefix() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let rules = |args: &[&str]| {
        let mut all = vec!["--format", "short"];
        all.extend(args);
        let out = tflint_merge(&examples, &all);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let ids: std::collections::BTreeSet<String> = (stdout(&out).lines())
            .filter_map(|line| line.split_once('[')?.1.split_once(']'))
            .map(|(id, _)| id.to_string())
            .collect();
        (ids, stderr)
    };
    let (all, _) = rules(&["."]);
    assert!(all.contains("tofu_shadows_tf") && all.contains("override_noop"));
    let load_errors = [
        "duplicate_definition",
        "syntax_error",
        "override_without_base",
    ];
    // What `validate` refuses is no rule either: `--only` leaves it on.
    let validate_findings = ["variable_default_invalid", "instance_reference_invalid"];
    for selection in [
        vec!["--select", "override_*", "."],
        vec!["--select", "override", "."],
        vec!["--only", "override_*", "--ignore", "tofu_*", "."],
    ] {
        let (ids, stderr) = rules(&selection);
        assert_eq!(stderr, "", "{selection:?}");
        for id in &ids {
            assert!(
                id.starts_with("override_")
                    || load_errors.contains(&id.as_str())
                    || validate_findings.contains(&id.as_str()),
                "{id} with {selection:?}"
            );
        }
        assert!(ids.contains("override_noop"), "{selection:?}: {ids:?}");
        // Off by default, selected by the glob.
        assert!(
            ids.contains("override_undocumented"),
            "{selection:?}: {ids:?}"
        );
    }
    let (ids, _) = rules(&["--select", "override_*", "--ignore", "override_noop", "."]);
    assert!(
        !ids.contains("override_noop") && ids.contains("override_shadowed"),
        "{ids:?}"
    );
    let (ids, _) = rules(&[
        "--ignore",
        "override_*",
        "--extend-select",
        "override_noop",
        ".",
    ]);
    assert!(ids.contains("tofu_shadows_tf"), "{ids:?}");
    assert!(!ids.contains("override_shadowed"), "{ids:?}");
    assert!(
        !ids.contains("override_noop"),
        "--ignore comes last: {ids:?}"
    );
    assert!(
        ids.contains("override_without_base"),
        "a load error stays: {ids:?}"
    );
    let (_, stderr) = rules(&["--select", "zz_*", "."]);
    assert_eq!(
        stderr,
        "error: `zz_*` matches no rule (see `tflint-merge rules`)\n"
    );
}

/// `per_path:` sets rule levels for the files under a glob (relative to the config file):
/// off there, another severity there, or on only there; the last entry naming a rule wins.
#[test]
fn per_path_sets_rule_levels_under_paths() {
    let t = tempfile::tempdir().expect("tempdir");
    let noop: &[u8] = b"variable \"a\" {\n  default = 1\n}\n";
    write(
        t.path(),
        &[
            ("app/main.tf", noop),
            ("app/override.tf", noop),
            ("legacy/m/main.tf", noop),
            ("legacy/m/override.tf", noop),
            (
                ".tflint-merge.yaml",
                b"per_path:\n  \"legacy/**\":\n    override_noop: off\n  ./app:\n    \
                  \"override_*\": error\n    override_undocumented: notice\n",
            ),
        ],
    );
    let out = tflint_merge(&t.path().join("legacy"), &["--format", "short", ".."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "../app/main.tf:1:1: notice[override_undocumented]: variable `a` is changed by \
         `override.tf`, but its definition does not say so\n\
         ../app/override.tf:1:1: error[override_noop]: [*] override file `override.tf` changes \
         nothing: it only restates its base\n"
    );
    let out = tflint_merge(t.path(), &["--show-settings"]);
    assert!(
        stdout(&out).contains(
            "per_path: legacy/**: override_noop: off  (config file, relative to its directory)\n"
        ),
        "{}",
        stdout(&out)
    );
    write(
        t.path(),
        &[(
            ".tflint-merge.yaml",
            b"per_path:\n  app:\n    syntax_error: off\n",
        )],
    );
    let out = tflint_merge(t.path(), &["."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains(".tflint-merge.yaml:3:5: per_path.app: `syntax_error` is a load error"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--stdin-filename PATH` checks stdin in place of PATH (which need not exist), with the rest
/// of PATH's directory from disk, and reports the findings in that file only.
#[test]
fn stdin_stands_in_for_the_named_file() {
    use std::io::Write as _;
    let t = tempfile::tempdir().expect("tempdir");
    let noop: &[u8] = b"variable \"a\" {\n  default = 1\n}\n";
    write(
        t.path(),
        &[
            ("m/main.tf", noop),
            ("m/override.tf", noop),
            ("m/extra_override.tf", b"variable \"missing\" {}\n"),
        ],
    );
    let run = |name: &str, text: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
            .args(["--format", "short", "--stdin-filename", name])
            .current_dir(t.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run tflint-merge");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(text.as_bytes()).expect("write stdin");
        drop(stdin);
        child.wait_with_output().expect("output")
    };
    // The file on disk restates its base; stdin changes the default: nothing to report, and
    // the other override's finding is not this file's.
    let out = run("m/override.tf", "variable \"a\" {\n  default = 2\n}\n");
    assert_eq!(stdout(&out), "");
    assert_eq!(out.status.code(), Some(0));
    let out = run("m/main.tf", "variable \"b\" {}\n");
    assert_eq!(stdout(&out), "");
    let out = run("m/new_override.tf", "variable \"nope\" {}\n");
    assert_eq!(
        stdout(&out),
        "m/new_override.tf:1:1: error[override_without_base]: Missing base variable declaration \
         to override\n"
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read(t.path().join("m/override.tf")).expect("read"),
        noop
    );
    assert!(!t.path().join("m/new_override.tf").exists());
}

/// `--add-ignore REASON` writes an ignore comment with the reason above each line where a rule
/// finding starts (load errors stay); the next run reports none of them, and running it again
/// changes nothing.
#[test]
fn add_ignore_writes_a_baseline_once() {
    let t = tempfile::tempdir().expect("tempdir");
    let noop: &[u8] = b"variable \"a\" {\n  default = 1\n}\n";
    write(
        t.path(),
        &[
            ("m/main.tf", noop),
            ("m/override.tf", noop),
            ("d/main.tf", DUPLICATE),
        ],
    );
    let out = tflint_merge(t.path(), &["--add-ignore", "baseline, see #12", "."]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "added 1 ignore comment\n"
    );
    let override_tf = std::fs::read_to_string(t.path().join("m/override.tf")).expect("read");
    assert_eq!(
        override_tf,
        "# tflint-merge-ignore: override_noop  baseline, see #12\nvariable \"a\" {\n  default = \
         1\n}\n"
    );
    let out = tflint_merge(t.path(), &["--format", "short", "."]);
    assert_eq!(
        stdout(&out),
        "d/main.tf:2:1: error[duplicate_definition]: Duplicate resource \"x\" configuration\n"
    );
    let again = tflint_merge(t.path(), &["--add-ignore", "baseline, see #12", "."]);
    assert_eq!(
        String::from_utf8_lossy(&again.stderr),
        "added 0 ignore comments\n"
    );
    let after = std::fs::read_to_string(t.path().join("m/override.tf")).expect("read");
    assert_eq!(after, override_tf);
    let bad = tflint_merge(t.path(), &["--add-ignore", "two\nlines", "."]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `merged` on a directory with nothing its view loads says so and exits 2, rather than
/// printing an empty module as if it had merged one.
#[test]
fn merged_with_nothing_to_merge_is_a_usage_error() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            ("empty/README.md", b"# nothing\n"),
            ("tofu_only/main.tofu", b"variable \"a\" {}\n"),
            ("json/main.tf.json", b"{\"variable\": {\"a\": {}}}\n"),
        ],
    );
    let out = tflint_merge(t.path(), &["merged", "empty"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "error: nothing to merge: empty has no configuration file that Terraform loads \
         (.tf, .tf.json)\n"
    );
    // Terraform does not read `.tofu` files; OpenTofu does.
    let out = tflint_merge(t.path(), &["merged", "tofu_only"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tflint_merge(t.path(), &["merged", "--view", "opentofu", "tofu_only"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("variable \"a\""), "{}", stdout(&out));
    let out = tflint_merge(t.path(), &["merged", "--format", "json", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// `compat`: the releases that load each directory, the real minimum, and the advice on
/// constraints, in text and JSON; exit status 1 when there is advice.
#[test]
fn compat_prints_which_releases_load_each_directory() {
    let t = tempfile::tempdir().expect("tempdir");
    write(
        t.path(),
        &[
            (
                "loose/main.tf",
                b"terraform {\n  required_version = \">= 1.5\"\n}\nlocals {\n  t = templatestring(\"x\", {})\n}\n",
            ),
            ("plain/main.tf", b"variable \"x\" {}\n"),
        ],
    );
    let out = tflint_merge(t.path(), &["compat", "plain"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        "plain\n  Terraform: loads 1.0.0–1.15.9 (minimum 1.0.0)\n    constraints admit \
         1.0.0–1.15.9\n  OpenTofu: loads 1.6.0–1.12.6 (minimum 1.6.0)\n    constraints admit \
         1.6.0–1.12.6\n"
    );
    let out = tflint_merge(t.path(), &["compat", "loose"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("  Terraform: loads 1.9.0–1.15.9 (minimum 1.9.0)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "too loose: `>= 1.5` admits 1.5.0–1.8.5, which refuse the module; the narrowest \
             honest constraint is `>= 1.9.0`"
        ),
        "{text}"
    );
    let out = tflint_merge(t.path(), &["compat", "--format", "json", "loose"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let terraform = &json["directories"][0]["terraform"];
    assert_eq!(terraform["minimum"], "1.9.0");
    assert_eq!(terraform["loads"], serde_json::json!([["1.9.0", "1.15.9"]]));
    assert_eq!(terraform["too_loose"]["narrowest_honest"], ">= 1.9.0");
    let out = tflint_merge(t.path(), &["compat", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
}
