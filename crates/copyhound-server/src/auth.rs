//! Bearer tokens for writes.
//!
//! Reads (search, get, stats) are open; adds and removals need
//! `Authorization: Bearer <token>`. A server started without a token is
//! read-only and refuses every write. The token is compared in constant time
//! so that response timing does not reveal how much of a guess was right.

use axum::http::{HeaderMap, header};
use subtle::ConstantTimeEq;

use crate::error::{ApiError, ApiResult};

/// The secret that authorises writes.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    /// A token from its text; surrounding whitespace (a trailing newline in
    /// a token file) is not part of it. `None` for an empty token.
    pub fn new(text: &str) -> Option<Self> {
        let text = text.trim();
        (!text.is_empty()).then(|| Self(text.to_owned()))
    }

    fn matches(&self, offered: &str) -> bool {
        self.0.as_bytes().ct_eq(offered.as_bytes()).into()
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

/// Checks that `headers` carry the write token: 401 without a bearer
/// token, 403 with a wrong one or on a read-only server.
pub fn authorize_write(token: Option<&Token>, headers: &HeaderMap) -> ApiResult<()> {
    let Some(token) = token else {
        return Err(ApiError::Forbidden(
            "this server is read-only: start it with --token-file or COPYHOUND_TOKEN to allow writes"
                .into(),
        ));
    };
    let offered = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| {
            let (scheme, rest) = value.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
        })
        .ok_or(ApiError::Unauthorized)?;
    if token.matches(offered) {
        Ok(())
    } else {
        Err(ApiError::Forbidden("wrong bearer token".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn only_the_exact_token_is_accepted() {
        let token = Token::new("s3cret\n").unwrap();
        assert!(authorize_write(Some(&token), &headers("Bearer s3cret")).is_ok());
        assert!(authorize_write(Some(&token), &headers("bearer s3cret")).is_ok());
        for wrong in ["Bearer s3cre", "Bearer s3cret2", "Bearer ", "Basic s3cret"] {
            assert!(
                authorize_write(Some(&token), &headers(wrong)).is_err(),
                "{wrong:?} accepted"
            );
        }
        assert!(matches!(
            authorize_write(Some(&token), &HeaderMap::new()),
            Err(ApiError::Unauthorized)
        ));
    }

    #[test]
    fn a_server_without_token_refuses_writes() {
        assert!(matches!(
            authorize_write(None, &headers("Bearer anything")),
            Err(ApiError::Forbidden(_))
        ));
        assert!(Token::new(" \n").is_none());
    }
}
