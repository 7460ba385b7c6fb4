#pragma once

// What tests/crashchild.cpp writes, so that tst_recovery can check it after the kill.
#include <QByteArray>

namespace gp::test {

/// Revision N's document in crashchild's `saves` mode: large enough to span several pages.
inline QByteArray revisionDocument(int n)
{
    return QByteArray("{\"revision\": ") + QByteArray::number(n) + ", \"pad\": \"" +
           QByteArray(20000 + (n % 7) * 3000, char('a' + n % 26)) + "\"}";
}

} // namespace gp::test
