//! Stored images (ID photos, signatures) in an object store (the `object_store`
//! crate), chosen by `STORAGE_URL`. Events keep only the key and the SHA-256.
//!
//! | `STORAGE_URL` | Store |
//! |---|---|
//! | unset | a local directory, `data/uploads` (created if missing) |
//! | `file:///abs/path`, or a plain (relative or absolute) directory | a local directory (created if missing) |
//! | `s3://bucket/prefix` | S3 or an S3-compatible service (MinIO, ...), configured by the usual `AWS_*` variables through `AmazonS3Builder::from_env()` (`AWS_ENDPOINT` for MinIO) |
//! | `memory://` | in memory, lost at exit (tests, demos) |
//!
//! `STORAGE_DIR`, the directory setting of earlier versions, still works when
//! `STORAGE_URL` is unset (deprecated; a warning is logged).

use std::path::PathBuf;
use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path as ObjectPath;
use object_store::prefix::PrefixStore;
use object_store::{ObjectStore, PutPayload};

/// Where images are stored.
pub type Storage = Arc<dyn ObjectStore>;

/// The store used when neither `STORAGE_URL` nor `STORAGE_DIR` is set.
pub const DEFAULT_STORAGE_DIR: &str = "data/uploads";

/// Largest upload, bytes (PRODUCT.md section 5).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// Why `STORAGE_URL` names no usable store (a start-up error).
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// A scheme other than `file`, `s3` or `memory`.
    #[error(
        "STORAGE_URL {url:?}: unknown scheme {scheme:?}; expected file:///path, a directory, \
         s3://bucket/prefix or memory://"
    )]
    UnknownScheme {
        /// The URL as given.
        url: String,
        /// Its scheme.
        scheme: String,
    },
    /// The URL is malformed (no bucket, a `file:` URL that is no absolute path, ...).
    #[error("STORAGE_URL {url:?}: {reason}")]
    Invalid {
        /// The URL as given.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// The local directory could not be created or opened.
    #[error("STORAGE_URL {url:?}: cannot use the directory {path}: {reason}")]
    Directory {
        /// The URL as given.
        url: String,
        /// The directory.
        path: String,
        /// The cause.
        reason: String,
    },
    /// The S3 configuration (`AWS_*` variables) is refused by the S3 client.
    #[error("STORAGE_URL {url:?}: S3 configuration: {source}")]
    S3 {
        /// The URL as given.
        url: String,
        /// The cause.
        source: object_store::Error,
    },
}

/// Opens the store `url` names; S3 is configured from the environment
/// ([`crate::config::s3_from_env`]).
pub fn open(url: &str) -> Result<Storage, StorageError> {
    open_with(url, crate::config::s3_from_env())
}

/// Opens the store `url` names, with `s3` as the S3 configuration for `s3://` URLs
/// (its bucket is the URL's host).
pub fn open_with(url: &str, s3: AmazonS3Builder) -> Result<Storage, StorageError> {
    let invalid = |reason: &str| StorageError::Invalid {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    let Some((scheme, rest)) = url.split_once("://") else {
        // No scheme: a directory.
        return local(url, PathBuf::from(url));
    };
    match scheme.to_ascii_lowercase().as_str() {
        "memory" => {
            if !rest.trim_matches('/').is_empty() {
                return Err(invalid("memory:// takes no path"));
            }
            Ok(Arc::new(InMemory::new()))
        }
        "file" => {
            let parsed = url::Url::parse(url).map_err(|e| invalid(&e.to_string()))?;
            let path = parsed
                .to_file_path()
                .map_err(|()| invalid("file:// needs an absolute path, as file:///srv/uploads"))?;
            local(url, path)
        }
        "s3" => {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(invalid("s3:// needs a bucket, as s3://bucket/prefix"));
            }
            let store = s3
                .with_bucket_name(bucket)
                .build()
                .map_err(|source| StorageError::S3 {
                    url: url.to_string(),
                    source,
                })?;
            let prefix = prefix.trim_matches('/');
            if prefix.is_empty() {
                return Ok(Arc::new(store));
            }
            let prefix = ObjectPath::parse(prefix).map_err(|e| invalid(&e.to_string()))?;
            Ok(Arc::new(PrefixStore::new(store, prefix)))
        }
        other => Err(StorageError::UnknownScheme {
            url: url.to_string(),
            scheme: other.to_string(),
        }),
    }
}

/// A local directory store, creating the directory first.
fn local(url: &str, path: PathBuf) -> Result<Storage, StorageError> {
    let failed = |reason: String| StorageError::Directory {
        url: url.to_string(),
        path: path.display().to_string(),
        reason,
    };
    if path.as_os_str().is_empty() {
        return Err(failed("no directory given".to_string()));
    }
    std::fs::create_dir_all(&path).map_err(|e| failed(e.to_string()))?;
    let store = LocalFileSystem::new_with_prefix(&path).map_err(|e| failed(e.to_string()))?;
    Ok(Arc::new(store))
}

/// Longest key the api ever makes or serves, in bytes: `signature/{user id}/{sha256}.png`
/// is 115. Checked before any storage is reached, so an over-long name sent to
/// `GET /files/{key}` is "no such file", never a file-system error.
pub const MAX_KEY_BYTES: usize = 255;

/// The object path of an api key (`kind/user/sha.ext`); `None` for a key that is not
/// made of plain names (`..`, `.`, empty segments, a leading `/`, NUL, ...) or is
/// longer than [`MAX_KEY_BYTES`].
pub fn object_path(key: &str) -> Option<ObjectPath> {
    let plain = !key.is_empty()
        && key.len() <= MAX_KEY_BYTES
        && !key.contains('\0')
        && key
            .split('/')
            .all(|segment| !segment.is_empty() && segment != "." && segment != "..");
    if !plain {
        return None;
    }
    ObjectPath::parse(key).ok()
}

/// Writes `bytes` under `key` (keys are generated by the api: `kind/user/sha.ext`).
pub async fn put(storage: &Storage, key: &str, bytes: Vec<u8>) -> object_store::Result<()> {
    let path = object_path(key).ok_or_else(|| object_store::Error::InvalidPath {
        source: object_store::path::Error::EmptySegment {
            path: key.to_string(),
        },
    })?;
    storage.put(&path, PutPayload::from(bytes)).await?;
    Ok(())
}

/// The bytes stored under `key`, or `None` when there are none (or the key is not a
/// stored key's shape).
pub async fn get(storage: &Storage, key: &str) -> object_store::Result<Option<Vec<u8>>> {
    let Some(path) = object_path(key) else {
        return Ok(None);
    };
    match storage.get(&path).await {
        Ok(found) => Ok(Some(found.bytes().await?.to_vec())),
        Err(object_store::Error::NotFound { .. }) => Ok(None),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        std::env::temp_dir()
            .join("api-storage-tests")
            .join(format!("{name}-{}", uuid::Uuid::now_v7().simple()))
    }

    #[tokio::test]
    async fn memory_and_local_directories_store_and_read_back() {
        let dir = temp_dir("plain");
        let file_url = format!("file://{}", temp_dir("url").display());
        for url in ["memory://", dir.to_str().unwrap(), file_url.as_str()] {
            let store = open(url).unwrap_or_else(|e| panic!("{url}: {e}"));
            put(&store, "id/u1/front-ab.png", b"bytes".to_vec())
                .await
                .unwrap();
            assert_eq!(
                get(&store, "id/u1/front-ab.png").await.unwrap(),
                Some(b"bytes".to_vec()),
                "{url}"
            );
            assert_eq!(get(&store, "id/u1/missing.png").await.unwrap(), None);
            assert_eq!(get(&store, "id/../etc/passwd").await.unwrap(), None);
            // Over-long: no such file, without asking the store (a file system would
            // fail with "file name too long").
            let long = format!("id/u1/{}.png", "a".repeat(5_000));
            assert_eq!(get(&store, &long).await.unwrap(), None, "{url}");
        }
        // The directory was created, and the object is a file under it.
        assert!(dir.join("id/u1/front-ab.png").is_file());
    }

    #[test]
    fn a_relative_directory_is_created() {
        // Tests run in the package directory: the workspace's `target/` is beside it.
        let relative = format!(
            "../target/api-storage-tests/relative-{}",
            uuid::Uuid::now_v7().simple()
        );
        open(&relative).unwrap();
        assert!(std::path::Path::new(&relative).is_dir());
        std::fs::remove_dir_all(&relative).unwrap();
    }

    #[test]
    fn unusable_urls_are_start_up_errors_not_panics() {
        let error = |url: &str, s3: AmazonS3Builder| match open_with(url, s3) {
            Ok(_) => panic!("{url} was accepted"),
            Err(error) => error.to_string(),
        };
        let none = AmazonS3Builder::new;
        let unknown = error("ftp://host/dir", none());
        assert!(unknown.contains("unknown scheme \"ftp\""), "{unknown}");
        assert!(error("s3://", none()).contains("needs a bucket"));
        assert!(error("s3:///prefix", none()).contains("needs a bucket"));
        assert!(error("memory://somewhere", none()).contains("no path"));
        assert!(error("file://relative/dir", none()).contains("absolute path"));
        // An S3 setting the client refuses (not a boolean).
        let misconfigured = AmazonS3Builder::new().with_config(
            object_store::aws::AmazonS3ConfigKey::Client(object_store::ClientConfigKey::AllowHttp),
            "perhaps",
        );
        let s3 = error("s3://bucket/prefix", misconfigured);
        assert!(s3.contains("S3 configuration"), "{s3}");
        // A directory that cannot be created (under a file).
        let file = temp_dir("file");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, b"x").unwrap();
        let under_file = file.join("uploads");
        let dir = error(under_file.to_str().unwrap(), none());
        assert!(dir.contains("cannot use the directory"), "{dir}");
    }

    #[test]
    fn an_s3_url_with_a_bucket_builds_a_store() {
        let s3 = AmazonS3Builder::new()
            .with_region("us-east-1")
            .with_access_key_id("key")
            .with_secret_access_key("secret");
        assert!(open_with("s3://uploads/loan-app", s3.clone()).is_ok());
        assert!(open_with("s3://uploads", s3).is_ok());
    }
}
