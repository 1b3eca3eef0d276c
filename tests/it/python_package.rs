//! The Python package (`python/`, `pip install ./python`): its pytest suite
//! (`python/tests`) checks it against this build's CLI, line by line, and
//! runs `examples/dask_audit.py` on a `distributed.LocalCluster` over the
//! shared corpus, and `examples/spark_audit.py` and `ray_audit.py` on a local
//! Spark and Ray over the shared Lichess file. Without python, the package,
//! pytest, pyarrow, Dask or the shared corpus the test says SKIPPED (and
//! fails under `PGN_ARBITER_REQUIRE_ALL`); so does pytest's run of the Spark
//! and Ray tests without pyspark, Java or ray.
//!
//! The package is built when it is installed: after changing the Rust code,
//! `pip install ./python` again before this test means anything.

use crate::util::{self, Needs};

#[test]
fn the_python_package_passes_its_pytest_suite() {
    if !Needs::test()
        .python(&["pytest", "pyarrow", "distributed"])
        .python_package()
        .shared("data")
        .met()
    {
        return;
    }
    let out = util::python()
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .env("PGN_ARBITER_BIN", util::BIN)
        .env("PGN_ARBITER_SHARED", util::shared())
        .current_dir(util::root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pytest failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
