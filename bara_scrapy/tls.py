"""The crawl's one TLS policy (`BARA_TLS_VERIFY`), and how a refused certificate reads in an item.

Verified by default, as a browser does: a certificate no trusted authority issued (self-signed,
expired, for another name) is refused by every client of the crawl alike: Chromium (the browser
context's `ignore_https_errors`), the route handler's document fetch (the same context), Scrapy's
HTTP downloads (`DOWNLOAD_VERIFY_CERTIFICATES`: static pages, robots.txt) and media verification
(which downloads through Scrapy). `BARA_TLS_VERIFY=False` accepts any certificate everywhere.

A refused document is the page's `tls_error` (final: another attempt meets the same certificate); a
refused medium is rejected with reason `tls_error`.
"""

from __future__ import annotations

TLS_ERROR = "tls_error"
# what each client says about a certificate it refuses: OpenSSL (Scrapy/Twisted, Python), Node.js
# (Playwright's fetch), Chromium (net::ERR_CERT_*), service_identity (name mismatch)
_PHRASES = (
    "certificate verify failed", "certificate_verify_failed", "self-signed certificate", "self signed certificate",
    "unable to verify the first certificate", "unable to get local issuer certificate", "certificate has expired",
    "err_cert_", "err_tls_cert_altname_invalid", "hostname mismatch", "certificate is not valid for",
    "certificateerror", "verificationerror",
)


def is_certificate_error(message: str) -> bool:
    """Whether an error message says a TLS certificate was refused.

    >>> is_certificate_error("apiRequestContext.fetch: self-signed certificate")
    True
    >>> is_certificate_error("[<Failure OpenSSL.SSL.Error: [('SSL routines', '', 'certificate verify failed')]>]")
    True
    >>> is_certificate_error("net::ERR_CERT_AUTHORITY_INVALID at https://a.test/"), is_certificate_error("timeout")
    (True, False)
    """
    low = message.lower()
    return any(phrase in low for phrase in _PHRASES)


def context_kwargs(verify: bool, kwargs: dict[str, object]) -> dict[str, object]:
    """A browser context's kwargs under the policy: `ignore_https_errors` unless the context names its own.

    >>> context_kwargs(True, {}), context_kwargs(False, {"locale": "de"})
    ({'ignore_https_errors': False}, {'ignore_https_errors': True, 'locale': 'de'})
    >>> context_kwargs(False, {"ignore_https_errors": False})
    {'ignore_https_errors': False}
    """
    return {"ignore_https_errors": not verify, **kwargs}
