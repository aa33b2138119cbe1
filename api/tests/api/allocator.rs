//! The api's allocator commits memory as it uses it (`.cargo/config.toml`: mimalloc's
//! `arena_eager_commit` is 0), which keeps its peak resident memory under issue 14's
//! 150 MB (bench/PROFILE.md). mimalloc prints its options with `MIMALLOC_VERBOSE=1`.

#[test]
fn the_api_commits_allocator_memory_on_demand() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("--help")
        .env("MIMALLOC_VERBOSE", "1")
        .env_remove("MIMALLOC_ARENA_EAGER_COMMIT")
        .output()
        .expect("run the api binary");
    let printed = String::from_utf8_lossy(&output.stderr).to_string()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(
        printed.contains("option 'arena_eager_commit': 0"),
        "mimalloc's options as the api starts:\n{printed}"
    );
}
