import Testing

import SendingState

private struct Unit: ServerStateUnitRepresentable {
  var unitType: String
  var unitData: Any?
}

private struct Section: ServerStateSectionRepresentable {
  var sectionId: String?
  var units: [any ServerStateUnitRepresentable]
}

@Suite("Server-driven contracts (checklist 76)")
struct ServerStateContractTests {
  @Test("C76: sections and units are plain protocols, iterated in order")
  func c76_contractsIterateInOrder() {
    let sections: [any ServerStateSectionRepresentable] = [
      Section(sectionId: "top", units: [Unit(unitType: "banner", unitData: ["title": "Hi"]), Unit(unitType: "spacer")]),
      Section(sectionId: nil, units: [Unit(unitType: "product", unitData: 3)]),
    ]
    let visited = sections.flatMap { section in section.units.map { "\(section.sectionId ?? "-"):\($0.unitType)" } }
    #expect(visited == ["top:banner", "top:spacer", "-:product"])
    #expect(sections[1].units[0].unitData as? Int == 3)
    #expect(sections[0].units[1].unitData == nil)
  }
}
