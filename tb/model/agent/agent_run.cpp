#include "model/agent/agent_run.h"

namespace tpugen::agent {

mover::MoverMemory AgentStimulus::memory() const {
  mover::MoverMemory mem(mem_base, image);
  for (const auto a : slverr) mem.inject_slverr(a);
  return mem;
}

std::size_t AgentStimulus::flits() const {
  std::size_t n = 0;
  for (const auto& p : ports) n += p.flits.size();
  return n;
}

AgentExpectation expect_agent_run(const SystemNodeSpec& spec, const noc::Codec& codec, const NocParams& params,
                                  const AgentStimulus& stimulus) {
  AgentExpectation e;
  e.memory = stimulus.memory();
  const std::uint32_t wr_req = codec.type_code("MEM_WR_REQ");
  const noc::FieldRef addr = codec.field("mem_req.addr"), len = codec.field("mem_req.len");
  const auto word = static_cast<std::uint64_t>(spec.word_bytes());
  const mover::MoverMemory pristine = stimulus.memory();  // what each word answers (responses never change)
  for (const AgentPortInput& port : stimulus.ports) {
    AgentModel model(spec, codec, port.node, e.memory, params);
    AnswerStreams streams;
    std::size_t out = 0;
    for (const AgentFlit& f : port.flits) {
      const std::vector<noc::Flit> answers = model.accept(f.flit);
      append_answers(streams, codec, f.flit, answers);
      out += answers.size();
      if (codec.header(f.flit).type != wr_req) continue;
      // A write naming a word memory refuses: all its words are unsettled.
      const std::uint64_t a = addr.get(f.flit), beats = len.get(f.flit) + 1;
      if (a % word != 0 || beats > static_cast<std::uint64_t>(spec.agent.write_max_len) + 1) continue;
      bool bad = false;
      mover::MoverWord w{};
      for (std::uint64_t k = 0; k < beats; ++k) bad = bad || pristine.read(a + word * k, w) != mover::Resp::Okay;
      if (bad)
        for (std::uint64_t k = 0; k < beats; ++k) e.unsettled.insert(a + word * k);
    }
    e.streams.push_back(std::move(streams));
    e.counters.push_back(model.counters());
    e.flits_out.push_back(out);
  }
  return e;
}

}  // namespace tpugen::agent
