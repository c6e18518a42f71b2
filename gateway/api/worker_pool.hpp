#pragma once
// Threads that run blocking work (parsing, admission, engine calls) off the
// I/O threads. The queue is bounded by the transport's connection cap: each
// connection has at most one request in flight.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace qg::gateway {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  ~WorkerPool();  // finishes queued jobs, then joins
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void post(std::function<void()> job);

 private:
  void run();
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace qg::gateway
