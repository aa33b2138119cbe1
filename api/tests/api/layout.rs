//! Where the read models' SQL lives (issue 14 item 4): every statement that names a
//! read model table is in `projections::reads`, none in the api's sources.

use std::collections::BTreeSet;
use std::path::Path;

/// The identifiers that follow `from`, `join`, `into` and `update` in `source`
/// (lower-cased, any whitespace between).
fn tables_named(source: &str) -> BTreeSet<String> {
    let lower = source.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|pair| matches!(pair[0], "from" | "join" | "into" | "update"))
        .map(|pair| pair[1].to_string())
        .collect()
}

fn rust_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn no_api_source_names_a_read_model_table() {
    let read_models: BTreeSet<String> = projections::projection::all()
        .iter()
        .flat_map(|p| p.tables().iter().map(|t| t.name.to_string()))
        .collect();
    assert!(read_models.contains("order_detail") && read_models.contains("user_profile"));
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut offenders = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("read source");
        // Only string literals hold SQL; a doc comment may name a table in words.
        let code: String = source
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for table in tables_named(&code).intersection(&read_models) {
            offenders.push(format!("{}: {table}", file.display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "read model SQL outside projections::reads: {offenders:#?}"
    );
}

#[test]
fn the_scan_finds_a_table_named_in_sql() {
    let sql = "select doc from order_detail d\n  left join  user_profile u on 1 = 1";
    let found = tables_named(sql);
    assert!(found.contains("order_detail") && found.contains("user_profile"));
}
