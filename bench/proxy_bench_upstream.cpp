// A minimal, fast stand-in provider for bench/proxy_bench.sh: answers every POST with a fixed
// Anthropic Messages JSON reply (usage included) after reading the whole request body, so
// the benchmark measures the proxy's added latency rather than a slow mock. Loopback only.
//
// usage: proxy_bench_upstream [PORT]   prints the bound port on stdout, serves until killed (SIGTERM).
#include <httplib.h>
#include <sys/socket.h>

#include <cstdio>
#include <string>

namespace {

constexpr const char* kReply =
    R"({"id":"msg_bench","type":"message","role":"assistant","model":"claude-bench",)"
    R"("content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,)"
    R"("usage":{"input_tokens":2500,"output_tokens":1,"cache_creation_input_tokens":0,)"
    R"("cache_read_input_tokens":0}})";

}  // namespace

int main(int argc, char** argv) {
  int port = argc > 1 ? std::stoi(argv[1]) : 0;
  httplib::Server server;
  server.new_task_queue = [] { return new httplib::ThreadPool(16); };
  // httplib closes a keep-alive connection after 5 requests by default; a real provider does not.
  server.set_keep_alive_max_count(100000);
  server.set_tcp_nodelay(true);  // as the proxy does: no Nagle delay between head and body
  // httplib listens with a backlog of 5: a burst of new connections (the proxy replacing its
  // pool) overflowed it and the dropped SYNs cost 1 s retransmits. Widen it after bind.
  int listen_fd = -1;
  server.set_socket_options([&listen_fd](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd = sock;
  });
  server.Post(R"(/.*)", [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("request-id", "req_bench");
    res.set_content(kReply, "application/json");
    (void)req;
  });
  if (port == 0) {
    port = server.bind_to_any_port("127.0.0.1");
  } else if (!server.bind_to_port("127.0.0.1", port)) {
    port = -1;
  }
  if (port < 0) {
    std::fprintf(stderr, "proxy_bench_upstream: cannot bind\n");
    return 1;
  }
  if (listen_fd >= 0) ::listen(listen_fd, SOMAXCONN);
  std::printf("%d\n", port);
  std::fflush(stdout);
  server.listen_after_bind();
  return 0;
}
