#include "model/core/gemm_job.h"

#include <fmt/format.h>

#include "isa/check.h"
#include "isa/image.h"
#include "model/core/model.h"

namespace tpugen {

std::vector<std::int8_t> place_in_dram(const Int8Matrix& m, std::int64_t maxdim) {
  if (m.rows > maxdim || m.cols > maxdim)
    throw Error("run.shape", fmt::format("a {}x{} matrix does not fit a {}x{} DRAM region", m.rows, m.cols, maxdim, maxdim));
  std::vector<std::int8_t> out(static_cast<std::size_t>(maxdim * maxdim), 0);
  for (std::int64_t r = 0; r < m.rows; ++r)
    for (std::int64_t c = 0; c < m.cols; ++c)
      out[static_cast<std::size_t>(r * maxdim + c)] = m.data[static_cast<std::size_t>(r * m.cols + c)];
  return out;
}

Int8Matrix crop(const Int8Matrix& full, std::int64_t rows, std::int64_t cols) {
  Int8Matrix out{rows, cols, std::vector<std::int8_t>(static_cast<std::size_t>(rows * cols))};
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      out.data[static_cast<std::size_t>(r * cols + c)] = full.data[static_cast<std::size_t>(r * full.cols + c)];
  return out;
}

GemmOutcome run_gemm_model(const Isa& isa, const GemmJob& job) {
  const std::int64_t maxdim = isa.param("MAXDIM");
  const GemmShape& s = job.shape;
  if (job.a.rows != s.m || job.a.cols != s.k)
    throw Error("run.shape", fmt::format("A is {}x{}; a {}x{}x{} GEMM needs {}x{}", job.a.rows, job.a.cols, s.m, s.k, s.n, s.m, s.k));
  if (job.b.rows != s.k || job.b.cols != s.n)
    throw Error("run.shape", fmt::format("B is {}x{}; a {}x{}x{} GEMM needs {}x{}", job.b.rows, job.b.cols, s.m, s.k, s.n, s.k, s.n));
  if (job.c_init.rows != maxdim || job.c_init.cols != maxdim)
    throw Error("run.shape", fmt::format("the C prefill is {}x{}; it must be MAXDIM x MAXDIM = {}x{}", job.c_init.rows,
                                         job.c_init.cols, maxdim, maxdim));
  GemmOutcome out;
  const Program program = gemm_program(isa, s, job.options);
  out.image = assemble(isa, program);
  out.instructions = program.instrs.size();
  out.header = header_counts(isa, program, expand(isa, program));

  auto model = std::make_shared<Model>(isa);
  model->set_dram("A", place_in_dram(job.a, maxdim));
  model->set_dram("B", place_in_dram(job.b, maxdim));
  model->set_dram("C", job.c_init.data);
  model->run_image(out.image);
  out.issues = model->issues();
  out.unit_steps = model->unit_steps();
  out.c_full = Int8Matrix{maxdim, maxdim, model->dram("C")};
  out.model = model;
  out.c = crop(out.c_full, s.m, s.n);
  return out;
}

std::string compare_c(const Int8Matrix& c_full, const Int8Matrix& c_init, const Int8Matrix& expected) {
  std::string first;
  std::size_t more = 0;
  for (std::int64_t r = 0; r < c_full.rows; ++r)
    for (std::int64_t c = 0; c < c_full.cols; ++c) {
      const auto idx = static_cast<std::size_t>(r * c_full.cols + c);
      const bool inside = r < expected.rows && c < expected.cols;
      const int want = inside ? expected.data[static_cast<std::size_t>(r * expected.cols + c)] : c_init.data[idx];
      const int have = c_full.data[idx];
      if (have == want) continue;
      if (first.empty())
        first = fmt::format("C[{}][{}] = {}, expected {}{}", r, c, have, want, inside ? "" : " (outside the result: the prefill)");
      else
        ++more;
    }
  if (!first.empty() && more) first += fmt::format(" (and {} more)", more);
  return first;
}

}  // namespace tpugen
