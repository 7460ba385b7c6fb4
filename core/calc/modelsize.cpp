#include "modelsize.h"

namespace gp::calc {

namespace {

double count(const ModelArchitecture& a, int experts)
{
    const double h = a.hiddenSize;
    const double headDim = a.attentionHeads > 0 ? h / a.attentionHeads : 0.0;
    const double attention = 2.0 * h * h + 2.0 * h * (a.kvHeads * headDim);
    const double ffnOne = (a.gatedFfn ? 3.0 : 2.0) * h * a.ffnHiddenSize;
    const double router = a.experts > 1 ? h * a.experts : 0.0;
    const double perLayer = attention + experts * ffnOne + router;
    const double embeddings = 2.0 * static_cast<double>(a.vocabSize) * h;
    return a.layers * perLayer + embeddings;
}

} // namespace

double parameterCount(const ModelArchitecture& arch) { return count(arch, arch.experts); }

double activeParameterCount(const ModelArchitecture& arch) { return count(arch, arch.activeExperts); }

} // namespace gp::calc
