// caveman/base/mutex.h — a mutex clang's -Wthread-safety can check (docs/base.md).
//
// The attribute macros name which mutex guards a member (GUARDED_BY) and which a function
// expects held (REQUIRES) or takes (ACQUIRE/RELEASE); clang checks every access at compile
// time, other compilers see nothing. base::Mutex is std::mutex with the capability attribute;
// MutexLock is its lock_guard, UniqueLock its unique_lock (unlock/relock, and native() for
// std::condition_variable). A wait predicate is a lambda, checked as its own function, so it
// says what it reads under: `cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return done_; })`.
// Same thread-safety as std::mutex.
#ifndef CAVEMAN_BASE_MUTEX_H_
#define CAVEMAN_BASE_MUTEX_H_

#include <mutex>

#if defined(__clang__)
#define CAVEMAN_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define CAVEMAN_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) CAVEMAN_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY CAVEMAN_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) CAVEMAN_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) CAVEMAN_THREAD_ANNOTATION(pt_guarded_by(x))
#define ACQUIRED_BEFORE(...) CAVEMAN_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define ACQUIRED_AFTER(...) CAVEMAN_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#define REQUIRES(...) CAVEMAN_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) CAVEMAN_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) CAVEMAN_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) CAVEMAN_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define EXCLUDES(...) CAVEMAN_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) CAVEMAN_THREAD_ANNOTATION(assert_capability(x))
#define RETURN_CAPABILITY(x) CAVEMAN_THREAD_ANNOTATION(lock_returned(x))
// Only where the analysis cannot follow the locking; say why next to each use.
#define NO_THREAD_SAFETY_ANALYSIS CAVEMAN_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace caveman::base {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  bool try_lock() TRY_ACQUIRE(true) { return mu_.try_lock(); }

  // The std::mutex underneath, for std::unique_lock; UniqueLock is the annotated way.
  std::mutex& native() RETURN_CAPABILITY(this) { return mu_; }

 private:
  std::mutex mu_;
};

// Holds `mu` for its scope (std::lock_guard).
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() RELEASE() { mu_.unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex& mu_;
};

// Holds `mu` for its scope unless unlocked early (std::unique_lock); native() is the
// std::unique_lock a std::condition_variable waits on — the wait releases and retakes `mu`,
// so it is held again when the wait returns, as the analysis assumes.
class SCOPED_CAPABILITY UniqueLock {
 public:
  explicit UniqueLock(Mutex& mu) ACQUIRE(mu) : lock_(mu.native()) {}
  ~UniqueLock() RELEASE() = default;
  UniqueLock(const UniqueLock&) = delete;
  UniqueLock& operator=(const UniqueLock&) = delete;

  void lock() ACQUIRE() { lock_.lock(); }
  void unlock() RELEASE() { lock_.unlock(); }
  std::unique_lock<std::mutex>& native() { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_MUTEX_H_
