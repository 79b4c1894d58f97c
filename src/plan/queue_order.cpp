#include "queue_order.h"

#include <string>

namespace eruplan {

namespace {

// "namespace/name", the last key of coscheduling's Less (the request's
// name for an eruplan request).
std::string queue_key(const Request& r) { return r.pod ? r.pod->ns + "/" + r.pod->name : r.name; }

}  // namespace

bool queue_less(const Request& a, const Request& b, QueueSort sort) {
  if (a.priority != b.priority) return a.priority > b.priority;
  switch (sort) {
    case QueueSort::Priority:
      return false;
    case QueueSort::Qos:
      return a.qos < b.qos;
    case QueueSort::Coscheduling:
      // An object not created yet is created when applied, after the others.
      if (a.created != b.created) return a.created && (!b.created || *a.created < *b.created);
      return queue_key(a) < queue_key(b);
  }
  return false;
}

}  // namespace eruplan
