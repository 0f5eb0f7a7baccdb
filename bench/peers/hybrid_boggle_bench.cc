// Times danvk/hybrid-boggle's Boggler on a file of boards, for bench/bench_boggle_peer.py.
//
// Built against a checkout of https://github.com/danvk/hybrid-boggle (its cpp/ directory holds
// boggler.h, trie.h, trie.cc and constants.h), with the flags of its CMakeLists.txt:
//
//   g++ -std=c++20 -O3 -march=native -I CHECKOUT/cpp bench/peers/hybrid_boggle_bench.cc \
//       CHECKOUT/cpp/trie.cc -o hybrid_boggle_bench
//
// Usage: hybrid_boggle_bench WORDS BOARDS MODE RUNS
//   WORDS   one lowercase a-z word a line (the peer's Trie::CreateFromFile)
//   BOARDS  one board a line: 16 (4x4) or 25 (5x5) lowercase letters, row by row
//   MODE    words: Boggler<4, 4>::FindWords, every word's path (the peer lists words on 4x4 only)
//           score: Boggler<M, N>::Score, the board's total score
//           list:  the words of each board, sorted, one board a line (to check the answers)
//   RUNS    passes over all the boards (words and score modes)
// Prints one line a pass: "seconds S boards B found F" (F: words, or points in score mode).
// The trie is loaded once, before the first pass, and not timed.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "boggler.h"
#include "trie.h"

namespace {

std::vector<std::string> read_boards(const char* path) {
  std::ifstream in(path);
  std::vector<std::string> boards;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) boards.push_back(line);
  }
  return boards;
}

template <int M, int N>
long long pass(Boggler<M, N>& boggler, const std::vector<std::string>& boards, bool words) {
  long long found = 0;
  for (const auto& board : boards) {
    if constexpr (M == 4 && N == 4) {
      if (words) {
        found += boggler.FindWords(board.c_str()).size();
        continue;
      }
    }
    found += boggler.Score(board.c_str());
  }
  return found;
}

template <int M, int N>
int run(Trie* trie, const std::vector<std::string>& boards, const std::string& mode, int runs) {
  Boggler<M, N> boggler(trie);
  for (int r = 0; r < runs; r++) {
    auto start = std::chrono::steady_clock::now();
    long long found = pass(boggler, boards, mode == "words");
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::printf("seconds %.6f boards %zu found %lld\n", seconds.count(), boards.size(), found);
  }
  return 0;
}

int list(Trie* trie, const std::vector<std::string>& boards) {
  Boggler<4, 4> boggler(trie);
  for (const auto& board : boards) {
    std::vector<std::string> words;
    for (const auto& path : boggler.FindWords(board.c_str())) {
      std::string word;
      for (int cell : path) word += board[cell];
      words.push_back(word);
    }
    std::sort(words.begin(), words.end());
    for (size_t i = 0; i < words.size(); i++) std::printf(i ? " %s" : "%s", words[i].c_str());
    std::printf("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s WORDS BOARDS words|score|list RUNS\n", argv[0]);
    return 2;
  }
  std::string mode = argv[3];
  int runs = std::atoi(argv[4]);
  auto boards = read_boards(argv[2]);
  if (boards.empty() || (boards[0].size() != 16 && boards[0].size() != 25)) {
    std::fprintf(stderr, "%s: boards must be 16 or 25 letters a line\n", argv[2]);
    return 2;
  }
  bool square4 = boards[0].size() == 16;
  if ((mode == "words" || mode == "list") && !square4) {
    std::fprintf(stderr, "the peer lists words on 4x4 boards only\n");
    return 2;
  }
  auto trie = Trie::CreateFromFile(argv[1]);
  if (!trie) return 1;
  if (mode == "list") return list(trie.get(), boards);
  return square4 ? run<4, 4>(trie.get(), boards, mode, runs)
                 : run<5, 5>(trie.get(), boards, mode, runs);
}
