import Foundation

/// The measuring of one picture: every text pictures measure or draw passes here, cut to the
/// budget's length, and counted against its work; every cut is noted once per kind and place.
///
/// Shared by the layout and the drawing of one picture (``ScreenPicture`` keeps it), so the two
/// spend one budget. `@unchecked Sendable`: its state changes under a lock.
package final class PictureMeasure: @unchecked Sendable {
  /// The budget.
  package let budget: PictureBudget
  private let lock = NSLock()
  private var work = 0
  /// What may be spent so far: half the budget while the layout measures (every view, shown or
  /// not), the whole once the drawing fits the texts that show.
  private var ceiling: Int
  private var noted: [PictureCut] = []
  private var counts: [PictureCut.Kind: Int] = [:]
  /// The places cut so far, by kind, as hashes (a text is measured for the layout and again to
  /// be drawn: one cut); past 65,536 of them, every note counts.
  private var places: Set<Int> = []

  /// A measure spending `budget`.
  package init(budget: PictureBudget) {
    self.budget = budget
    ceiling = max(0, budget.maxTextWork) / 2
  }

  /// The layout is done: the drawing may spend the rest of the budget.
  package func layoutDone() {
    lock.withLock { ceiling = max(0, budget.maxTextWork) }
  }

  /// Characters measured so far (each text at least ``PictureBudget/minimumTextWork``).
  package var spent: Int { lock.withLock { work } }

  /// The cuts so far: the first of each kind, with its place, and how many of its kind there were.
  package var cuts: [PictureCut] {
    lock.withLock {
      noted.map { cut in
        var cut = cut
        if let count = counts[cut.kind], count > 1 { cut.detail += " (and \(count - 1) more of this kind)" }
        return cut
      }
    }
  }

  /// Notes a cut: the first of its kind is kept with its place; later ones (at other places) are
  /// counted.
  package func note(_ kind: PictureCut.Kind, at place: @autoclosure () -> String, _ detail: @autoclosure () -> String) {
    let here = place()
    lock.withLock {
      if places.count < 65_536 {
        var hasher = Hasher()
        hasher.combine(kind)
        hasher.combine(here)
        guard places.insert(hasher.finalize()).inserted else { return }
      }
      counts[kind, default: 0] += 1
      if counts[kind] == 1 { noted.append(PictureCut(kind: kind, place: here, detail: detail())) }
    }
  }

  /// `text` cut to ``PictureBudget/maxTextCharacters`` (with "…" when it was longer), and
  /// whether it was cut.
  package func bounded(_ text: String) -> (text: String, cut: Bool) {
    let scalars = text.unicodeScalars
    guard let end = scalars.index(scalars.startIndex, offsetBy: max(0, budget.maxTextCharacters), limitedBy: scalars.endIndex),
      end != scalars.endIndex
    else { return (text, false) }
    return (String(scalars[..<end]) + "…", true)
  }

  /// Spends the work of measuring `text`; false (nothing spent) once the budget cannot pay it.
  package func spend(on text: String) -> Bool {
    let cost = max(PictureBudget.minimumTextWork, text.unicodeScalars.count)
    return lock.withLock {
      guard work <= ceiling - cost else { return false }
      work += cost
      return true
    }
  }

  /// The width of `text` in the picture font, cut and paid for; 0 once the budget is spent (the
  /// text is then not drawn either). Cuts are noted at `place`.
  package func width(_ text: String, size: Double, bold: Bool = false, at place: @autoclosure () -> String) -> Double {
    guard !text.isEmpty else { return 0 }
    let (shown, cut) = bounded(text)
    if cut { noteTextCut(text, at: place()) }
    return measured(shown, size: size, bold: bold, at: place()) ?? 0
  }

  /// `text`, cut to the budget and shortened with "…" at its end when it is wider than `width`;
  /// "" once the budget is spent. Cuts are noted at `place`.
  package func fitted(_ text: String, width: Double, size: Double, bold: Bool = false, at place: @autoclosure () -> String) -> String {
    guard !text.isEmpty else { return "" }
    let (shown, cut) = bounded(text)
    if cut { noteTextCut(text, at: place()) }
    guard let full = measured(shown, size: size, bold: bold, at: place()) else { return "" }
    if full <= width { return shown }
    guard let ellipsis = measured("…", size: size, bold: bold, at: place()), ellipsis <= width else { return "" }
    // The longest prefix that fits with the ellipsis: pango's guess (the character at the width
    // left), checked, then a binary search below it if the guess was too long (bidi text).
    let characters = Array(cut ? String(shown.unicodeScalars.dropLast()) : shown)
    let plain = String(characters)
    guard paid(for: plain, at: place()) else { return "" }  // (pango lays it out once more to find the character)
    let guess = PictureFont.prefixGuess(characters, text: plain, x: width - ellipsis, size: size, bold: bold)
    func fits(_ count: Int) -> Bool? {
      guard count > 0 else { return true }
      return measured(String(characters[..<count]) + "…", size: size, bold: bold, at: place()).map { $0 <= width }
    }
    var low = 0
    var high = min(guess, characters.count)
    for _ in 0..<2 where high > 0 {  // the guess, or one character less (kerning with "…")
      switch fits(high) {
      case true?: return String(characters[..<high]) + "…"
      case false?: high -= 1
      case nil: return ""
      }
    }
    while low < high {
      let middle = (low + high + 1) / 2
      switch fits(middle) {
      case true?: low = middle
      case false?: high = middle - 1
      case nil: return ""
      }
    }
    return low == 0 ? "" : String(characters[..<low]) + "…"
  }

  /// The width of a text already cut, paid for; nil (and a cut noted) once the budget is spent.
  private func measured(_ text: String, size: Double, bold: Bool, at place: @autoclosure () -> String) -> Double? {
    guard paid(for: text, at: place()) else { return nil }
    return PictureFont.rawWidth(text, size: size, bold: bold)
  }

  /// Pays for laying out `text`; false (and a cut noted) once the budget is spent.
  private func paid(for text: String, at place: @autoclosure () -> String) -> Bool {
    guard spend(on: text) else {
      note(.textWork, at: place(), "the picture's \(budget.maxTextWork) characters of text measuring were spent: texts from here on are not drawn")
      return false
    }
    return true
  }

  private func noteTextCut(_ text: String, at place: @autoclosure () -> String) {
    note(.text, at: place(), "a text of \(text.unicodeScalars.count) characters, cut to \(budget.maxTextCharacters)")
  }
}
