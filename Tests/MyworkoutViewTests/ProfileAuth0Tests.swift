import MyworkoutCore
import MyworkoutView
import Testing

/// SPEC §15: on a real Auth0 tenant, Profile's Edit number is dim and says why.
@Suite struct ProfileAuth0Tests {
  @Test func editNumberSaysWhyItIsUnavailable() {
    var state = AppState.launch(with: .valid(ScreenSnapshotTests.session))
    state.editNumberUnavailable(because: Message.editNumberNeedsServer)
    let text = Renderer.render(state, width: 100, height: 30).text
    #expect(text.contains("Edit number: unavailable"))
    #expect(text.contains("Editing the number needs myworkout-server"))
    #expect(!text.contains("e edit number"), "the footer does not offer it")
  }
}
