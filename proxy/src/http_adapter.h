// The one place the request path meets cpp-httplib: a server handler turns httplib's
// request into a ProxyRequest and writes a ProxyResponse back. What this relies on from
// httplib (pinned by tests/unit/proxy/http_adapter_test.cpp, so an upgrade that changes
// it fails there): header names compare case-insensitively and iterate sorted; the peer
// arrives as REMOTE_ADDR/REMOTE_PORT/LOCAL_ADDR/LOCAL_PORT pseudo headers as well as
// fields; a multipart/form-data body is parsed into files and leaves `body` empty; the
// handler's const Request is the connection loop's own mutable object, read again after
// the handler for Accept-Encoding and Range; content providers stream as they write.
#ifndef CAVEMAN_PROXY_HTTP_ADAPTER_H_
#define CAVEMAN_PROXY_HTTP_ADAPTER_H_

#include "http_message.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace caveman::proxy {

// The client's request (a copy: httplib hands the handler a const view), then neutralize().
ProxyRequest read_request(const httplib::Request& req);

// httplib would gzip/br a response the *client* accepts compressed and apply its Range
// header; either would break the byte-exact relay, so both inputs are cleared once read.
void neutralize(const httplib::Request& req);

// Status, headers in order, then the body, onto httplib's response.
void write_response(ProxyResponse out, httplib::Response& res);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_HTTP_ADAPTER_H_
