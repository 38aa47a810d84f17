print("bench: nothing yet")
